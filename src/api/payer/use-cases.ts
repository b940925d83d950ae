/**
 * What the payer audience's operations may ask of the application: each use case bound at start-up
 * (src/main/use-cases/payer.ts) to the store, Temporal and the bank. Types come from src/domain only,
 * so nothing here (nor any route that uses it) reaches the store or Temporal.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as the audience's routes move off repositories
export interface PayerUseCases {}
