/**
 * The stand-in pages' words (src/sandbox/page-texts.ts): Nepali has every English key and is Nepali,
 * the language comes from `?lang=` alone, the forms carry it on, and the switch links each language.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml } from '../../../src/sandbox/html.js';
import { PAGE_TEXTS, languageOf, languageSwitch, pageText, withLanguage, type PageTextKey } from '../../../src/sandbox/page-texts.js';

test("Nepali has exactly English's keys, and none of its texts is left in English", () => {
  assert.deepEqual(Object.keys(PAGE_TEXTS.ne).sort(), Object.keys(PAGE_TEXTS.en).sort());
  // Kept as the providers and the sandbox print them: codes, field names, placeholders.
  const kept = /MPIN|OTP|UAT|UTC|failure_url|\{\w+\}/g;
  for (const [key, text] of Object.entries(PAGE_TEXTS.ne)) {
    assert.notEqual(text, PAGE_TEXTS.en[key as PageTextKey], `${key} is the English text`);
    assert.doesNotMatch(text.replace(kept, ''), /[A-Za-z]/, `${key}: "${text}" has English words`);
    assert.deepEqual(text.match(/\{\w+\}/g)?.sort() ?? [], PAGE_TEXTS.en[key as PageTextKey].match(/\{\w+\}/g)?.sort() ?? [], `${key}'s placeholders`);
  }
});

test("the Nepali words are the element's: payment, wallet, cancel, eSewa, Khalti", () => {
  assert.equal(pageText('ne', 'intent.confirm'), 'भुक्तानी पुष्टि गर्नुहोस्');
  assert.equal(pageText('ne', 'page.cancel'), 'रद्द गर्नुहोस्');
  assert.equal(pageText('ne', 'khalti.heading'), 'खल्तीबाट भुक्तानी गर्नुहोस्', "the element's wallet.khalti label");
  assert.match(pageText('ne', 'epay.title'), /^इसेवा: /);
  assert.match(pageText('ne', 'intent.title-wallet'), /^वालेट: /);
});

test('a text fills its placeholders and leaves an unknown one as it is', () => {
  assert.equal(pageText('en', 'intent.processed', { status: 'SUCCESS', since: '2026-01-02 03:04:05' }), 'This booking is already SUCCESS (since 2026-01-02 03:04:05 UTC).');
  assert.equal(pageText('ne', 'intent.processed', { status: 'SUCCESS' }), 'यो बुकिङको स्थिति SUCCESS हो ({since} UTC देखि)।');
});

test('the language is Nepali only for ?lang=ne; anything else, or none, is English', () => {
  assert.equal(languageOf('/web/pay/BK-1?lang=ne'), 'ne');
  assert.equal(languageOf('/?pidx=abc&lang=ne#top'), 'ne');
  assert.equal(languageOf('http://127.0.0.1:1/pay/BK-1?lang=ne'), 'ne');
  for (const url of [undefined, '', '/web/pay/BK-1', '/x?lang=en', '/x?lang=NE', '/x?lang=fr', '/x#?lang=ne', '/x?language=ne']) assert.equal(languageOf(url), 'en', String(url));
});

test("a Nepali page's paths carry ?lang=ne, an English page's stay as they are", () => {
  assert.equal(withLanguage('/web/pay/BK-1/confirm', 'ne'), '/web/pay/BK-1/confirm?lang=ne');
  assert.equal(withLanguage('/?pidx=abc', 'ne'), '/?pidx=abc&lang=ne');
  assert.equal(withLanguage('/web/pay/BK-1/confirm', 'en'), '/web/pay/BK-1/confirm');
});

test('the switch marks the current language and links the other, each named in its own language', () => {
  const nav = languageSwitch('en', (lang) => withLanguage('/pay/BK-1', lang), escapeHtml);
  assert.match(nav, /^<nav class="lang" aria-label="Language">/);
  assert.match(nav, /<strong lang="en" aria-current="page">English<\/strong>/);
  assert.match(nav, /<a lang="ne" hreflang="ne" href="\/pay\/BK-1\?lang=ne">नेपाली<\/a>/);
  const back = languageSwitch('ne', (lang) => withLanguage('/?pidx=a&b', lang), escapeHtml);
  assert.match(back, /aria-label="भाषा"/);
  assert.match(back, /<a lang="en" hreflang="en" href="\/\?pidx=a&#38;b">English<\/a>/, 'the address escaped');
  assert.match(back, /<strong lang="ne" aria-current="page">नेपाली<\/strong>/);
});

test("a refused form's errors: English word for word as the routes have always answered, Nepali filled the same way", () => {
  assert.equal(pageText('en', 'error.mpin'), 'Enter an MPIN of 4 to 6 digits.');
  assert.equal(pageText('en', 'error.method'), 'Choose a payment method: wallet balance or linked bank account.');
  assert.equal(pageText('en', 'error.scenario'), 'Choose a scenario of the list (or none).');
  const epay = { first: '9806800001', last: '9806800005', password: 'Nepal@123', token: '123456' };
  assert.equal(pageText('en', 'epay.error-login', epay), 'Wrong eSewa ID, password or token. Use a test ID (9806800001 to 9806800005), password Nepal@123 and token 123456.');
  assert.equal(pageText('ne', 'epay.error-login', epay), 'इसेवा आईडी, पासवर्ड वा टोकन मिलेन। परीक्षण आईडी (9806800001 देखि 9806800005), पासवर्ड Nepal@123 र टोकन 123456 प्रयोग गर्नुहोस्।');
  const khalti = { first: '9800000000', last: '9800000005', mpin: '1111', otp: '987654' };
  assert.equal(pageText('en', 'khalti.error-login', khalti), 'Wrong Khalti ID, MPIN or OTP. Test IDs 9800000000 to 9800000005, MPIN 1111, OTP 987654.');
  assert.equal(pageText('ne', 'khalti.error-login', khalti), 'खल्ती आईडी, MPIN वा OTP मिलेन। परीक्षण आईडी 9800000000 देखि 9800000005, MPIN 1111, OTP 987654।');
});
