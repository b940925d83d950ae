/** A webhook or checkout return whose signature does not verify: refuse it (answer 400, do not fulfil). */
export class SignatureVerificationError extends Error {
  override readonly name = 'SignatureVerificationError';
}
