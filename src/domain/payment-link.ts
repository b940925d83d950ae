import { istWallClockToInstant } from './ist-time';

/** How far ahead a link may expire: a payment request older than this is a new request. */
export const MAX_LINK_LIFETIME_DAYS = 180;
/** Entries in one create call. */
export const MAX_LINKS_PER_BATCH = 500;
export const QR_IMG_MIN = 100;
export const QR_IMG_MAX = 1000;
export const QR_IMG_DEFAULT = 200;

/** `linkExpireBy` as the request carries it: `dd/MM/yyyy HH:mm:ss`, IST. */
export const LINK_EXPIRE_BY_PATTERN = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;

/** The instant `dd/MM/yyyy HH:mm:ss` (IST) names, or null when it names none. */
export function parseLinkExpireBy(text: string): Date | null {
  const m = LINK_EXPIRE_BY_PATTERN.exec(text);
  if (!m) return null;
  const [d, mo, y, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return istWallClockToInstant(y, mo, d, h, mi, s);
}

/** Why a link may not expire at `expireBy` when created at `now`, or null when it may. */
export function linkExpiryProblem(expireBy: Date, now: Date): string | null {
  if (expireBy.getTime() <= now.getTime()) return 'linkExpireBy: must be in the future';
  if (expireBy.getTime() - now.getTime() > MAX_LINK_LIFETIME_DAYS * 86_400_000)
    return `linkExpireBy: must be within ${MAX_LINK_LIFETIME_DAYS} days`;
  return null;
}

/** What a create request asks of one link, once its entry is valid. */
export interface LinkRequest {
  orderId: string;
  productDescription: string;
  invoiceNumber?: string;
  internalNotes?: string;
  customerEmail?: string;
  customerMobile?: string | number;
  showQrImg?: boolean;
  qrImgSize?: { width: number; height: number };
}

/** A valid entry: as sent (`raw`), as read (`entry`), its amount in paise and its expiry. */
export interface CheckedLinkEntry<E extends LinkRequest = LinkRequest> {
  raw: unknown;
  entry: E;
  amountPaise: number;
  expireBy: Date;
}

/** An entry refused on its own, with the reason naming the field. */
/** One entry's answer: what was sent, echoed, with its link or what is wrong with it. */
export type PaymentLinkResult = Record<string, unknown> & { link: string | null; qrCode?: string; errorDescription?: string };

export interface RefusedLinkEntry {
  raw: unknown;
  problem: string;
}

/** The QR image an entry asks for (`showQrImg`, at `qrImgSize` or the default), or null. */
export function linkQrImageSize(entry: LinkRequest): { width: number; height: number } | null {
  return entry.showQrImg ? (entry.qrImgSize ?? { width: QR_IMG_DEFAULT, height: QR_IMG_DEFAULT }) : null;
}

/**
 * The pixels of every QR image a batch asks for: what its rendering costs, held against the
 * per-request budget (QR_PIXEL_BUDGET). Entries refused on their own render nothing.
 */
export function batchQrPixels(entries: readonly (CheckedLinkEntry | RefusedLinkEntry)[]): number {
  let pixels = 0;
  for (const e of entries) {
    const size = 'entry' in e ? linkQrImageSize(e.entry) : null;
    if (size) pixels += size.width * size.height;
  }
  return pixels;
}

/** `1m 05s`, `2 h 10 min`, `3 days 4 h`: the time a payer has left, for the page. */
export function formatTimeLeft(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days ${hours % 24} h`;
}

/** A payment link: found by its unguessable token (`_id`), the capability a payer holds. */
export interface PaymentLink {
  _id: string;
  merchantIdentifier: string;
  orderId: string;
  batchId: string;
  invoiceNumber: string | null;
  internalNotes: string | null;
  customerMobile: string | null;
  createdAt: Date;
}
