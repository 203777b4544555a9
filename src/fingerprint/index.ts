export { fingerprint, fingerprintBackend } from './fingerprint.js';
