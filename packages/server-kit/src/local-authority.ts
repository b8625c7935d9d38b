import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

/**
 * A certificate authority of one's own, made on the spot, and a server certificate it signs:
 * for a server on this machine that a browser must trust (the rebinding lab's resolver, a test's
 * https fixture). The keys are Node's (fast); node-forge writes the X.509. Nothing is stored:
 * the caller decides where the authority's certificate goes.
 */
export interface LocalAuthority {
  /** The authority's certificate (PEM): what a browser is told to trust. */
  caPem: string;
  /** The server's private key and certificate (PEM). */
  keyPem: string;
  certPem: string;
}

/** A day either side of now: valid at once, for a lesson or a test run. */
const DAY_MS = 86_400_000;

function keys() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return {
    keyPem,
    key: forge.pki.privateKeyFromPem(keyPem),
    pub: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

function certificate(pub: forge.pki.PublicKey, serial: string, subject: string, extensions: object[]) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = pub;
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date(Date.now() - DAY_MS);
  cert.validity.notAfter = new Date(Date.now() + DAY_MS);
  cert.setSubject([{ name: 'commonName', value: subject }]);
  cert.setExtensions(extensions);
  return cert;
}

const IP = /^[\d.]+$|:/;

/** An authority named authorityName, and a certificate it signs for each of names (host names or IP addresses). */
export function localAuthority(authorityName: string, names: readonly string[]): LocalAuthority {
  const caKeys = keys();
  const ca = certificate(caKeys.pub, '01', authorityName, [
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true },
  ]);
  ca.setIssuer(ca.subject.attributes);
  ca.sign(caKeys.key, forge.md.sha256.create());
  const leafKeys = keys();
  const altNames = names.map((name) => (IP.test(name) ? { type: 7, ip: name } : { type: 2, value: name }));
  const leaf = certificate(leafKeys.pub, '02', names[0] ?? 'localhost', [
    { name: 'basicConstraints', cA: false },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames },
  ]);
  leaf.setIssuer(ca.subject.attributes);
  leaf.sign(caKeys.key, forge.md.sha256.create());
  return {
    caPem: forge.pki.certificateToPem(ca),
    keyPem: leafKeys.keyPem,
    certPem: forge.pki.certificateToPem(leaf),
  };
}
