/** @type {import('next').NextConfig} */
export default {
  // pg stays a Node module of the server, not bundled.
  serverExternalPackages: ['pg'],
};
