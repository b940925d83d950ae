import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { z } from 'zod';
import { BANK_SIGNATURE_HEADER, BANK_TIMESTAMP_HEADER, verifyBankSignature } from '../signing';
import { HttpProblem, sleep } from './desk';
import { faultOf, type Fault, type RequestFacts } from './faults';
import type { PayoutRouteDeps } from './payouts';

const MAX_BODY_BYTES = 65_536;

/** How the simulator reads a protocol request and answers it (routes.ts, payouts.ts). */
export type SignedExchange = Pick<PayoutRouteDeps, 'readSigned' | 'exchange'>;

/** The protocol's reading (signed requests, validated) and answering (through the transport faults). */
export function signedExchange(simulatorSecret: string, log: (line: string) => void): SignedExchange {
  /** The protocol: signed requests only, validated against the schemas. */
  const readSigned = async <S extends z.ZodType>(ctx: Context, schema: S | null): Promise<z.infer<S>> => {
    let raw: Buffer = Buffer.alloc(0);
    if (ctx.method === 'POST') {
      if (!ctx.is('application/json')) throw new HttpProblem(400, 'BAD_REQUEST', 'expected Content-Type application/json');
      try {
        raw = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES });
      } catch {
        throw new HttpProblem(400, 'BAD_REQUEST', `the body could not be read (at most ${MAX_BODY_BYTES} bytes)`);
      }
    }
    const check = verifyBankSignature(
      simulatorSecret,
      { timestamp: ctx.get(BANK_TIMESTAMP_HEADER) || undefined, signature: ctx.get(BANK_SIGNATURE_HEADER) || undefined },
      raw,
      new Date(),
    );
    if (!check.ok) throw new HttpProblem(401, 'BAD_SIGNATURE', `signature ${check.problem}`);
    if (!schema) return undefined as z.infer<S>;
    let value: unknown;
    try {
      value = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new HttpProblem(400, 'BAD_REQUEST', 'the body is not JSON');
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw new HttpProblem(
        400,
        'BAD_REQUEST',
        parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
      );
    return parsed.data;
  };

  /** Runs one exchange through the transport faults: latency, 5xx before or after committing, a dropped connection. */
  async function exchange(ctx: Context, facts: RequestFacts, requestFaults: Fault[], commit: () => unknown): Promise<void> {
    const latency = faultOf(requestFaults, 'latency');
    if (latency) await sleep(latency.ms);
    const error = faultOf(requestFaults, 'error');
    const drop = faultOf(requestFaults, 'drop');
    if (error && !error.afterCommit) return void answerError(ctx, error.status);
    if (drop && !drop.afterCommit) return dropConnection(ctx);
    const answer = commit();
    if (error) return void answerError(ctx, error.status);
    if (drop) {
      log(`dropped the connection of ${facts.operation} ${facts.id} after committing`);
      return dropConnection(ctx);
    }
    ctx.body = answer;
  }

  return { readSigned, exchange };
}

export async function readAdminJson(ctx: Context): Promise<unknown> {
  try {
    const raw = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES });
    return raw.length ? JSON.parse(raw.toString('utf8')) : {};
  } catch {
    throw new HttpProblem(400, 'BAD_REQUEST', 'the body is not JSON');
  }
}

function answerError(ctx: Context, status: number) {
  ctx.status = status;
  ctx.body = { error: 'UNAVAILABLE', message: 'the bank is temporarily unavailable (simulated)' };
}

function dropConnection(ctx: Context) {
  ctx.respond = false;
  ctx.req.socket.destroy();
}
