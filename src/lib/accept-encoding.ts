/** Content codings (RFC 9110 section 12.5.3), for the static files and the route answers that compress. */

/** Codings the client accepts with a non-zero quality (RFC 9110 section 12.5.3). */
export function acceptedCodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (!q || Number(q.slice(2)) > 0)) accepted.add(name.trim());
  }
  return accepted;
}
