// Encryption at rest for the secrets the service must read back (JWT signing keys, webhook secrets).
export interface SecretBox {
  seal(plaintext: string): string;
  /** Throws when the text was sealed under another key or altered. */
  open(sealed: string): string;
}
