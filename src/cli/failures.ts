/** A failure the CLI reports as one message on stderr and exit status 1 (the request did not do its job). */
export class CliFailure extends Error {}

/** The gateway answered with its error envelope: its code and text are what the operator reads. */
export class ApiFailure extends CliFailure {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    readonly text: string,
  ) {
    super(`error ${code}: ${text} (HTTP ${httpStatus})`);
  }
}
