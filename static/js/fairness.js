// The deal's check in the browser: the commitment made again with Web Crypto's SHA-256 from the
// revealed seed and the match id, over exactly the bytes the server hashes (docs/contract.md),
// and the commitment this browser was shown at the table, kept to compare once the match ended.
export const SCHEME = "watergate-online/fairness/v1";

/** "watergate-online/fairness/v1" ‖ 0x00 ‖ match id (UTF-8) ‖ 0x00 ‖ the seed's 32 bytes. */
export function commitmentBytes(matchId, seedHex) {
  if (!/^[0-9a-f]{64}$/i.test(seedHex)) throw new Error("a revealed seed is 64 hex digits");
  const text = new TextEncoder();
  const parts = [text.encode(SCHEME), [0], text.encode(matchId), [0], seedHex.match(/../g).map((h) => parseInt(h, 16))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** The commitment as 64 hex digits, or null where this page has no Web Crypto (it needs a
 * secure context: https, or the machine's own address). */
export async function recompute(matchId, seedHex) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", commitmentBytes(matchId, seedHex));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const key = (matchId) => `wg.fair.${matchId}`;

/** Keep the first commitment this browser was shown for the match (a later one is not kept:
 * the point is to notice if it ever changed). */
export function rememberCommitment(matchId, commitment) {
  try {
    if (commitment && !localStorage.getItem(key(matchId))) localStorage.setItem(key(matchId), commitment);
  } catch { /* storage refused: nothing to compare later */ }
}

export function seenCommitment(matchId) {
  try { return localStorage.getItem(key(matchId)); } catch { return null; }
}
