import { parseAst } from 'vite';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
const code = readFileSync('/tmp/own.js','utf8');
const ast = parseAst(code);
const ranges=[];
(function walk(n){ if(!n||typeof n.type!=='string')return;
 if(n.type==='Literal'&&typeof n.value==='string') ranges.push([n.start+1,n.end-1]);
 if(n.type==='TemplateElement') ranges.push([n.start,n.end]);
 for(const k in n){const v=n[k]; if(Array.isArray(v))v.forEach(walk); else if(v&&typeof v.type==='string')walk(v);} })(ast);
ranges.sort((a,b)=>b[0]-a[0]); let out=code; let removed=0;
for(const [s,e] of ranges){ removed+=e-s; out=out.slice(0,s)+out.slice(e);} 
console.log(ranges.length,'strings removed', removed, 'raw left', out.length, 'gzip left', gzipSync(out,{level:9}).length);
console.log(out.slice(0,600));
