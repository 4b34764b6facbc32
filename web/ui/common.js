// Small shared pieces of the pages.

export function seatLabel(s) {
  if (!s) return '?';
  if (s.kind === 'human') return s.name || `Seat ${s.seat + 1}`;
  if (s.kind === 'resigned') return `${s.name || `Seat ${s.seat + 1}`} (resigned)`;
  if (s.kind === 'bot') return `Bot (${(s.bot || 'random').replace(/^search:(\d+)$/, 'search $1 ms')})`;
  return 'Open seat';
}

export const inviteUrl = (id) => `${location.origin}/#/g/${id}`;
export const replayUrl = (id, step) => `${location.origin}/#/replay/${id}${step != null ? `?step=${step}` : ''}`;

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    try { document.execCommand('copy'); } catch {}
    ta.remove();
    return false;
  }
}

export function animSpeed() {
  const v = localStorage.getItem('robodrome.anim');
  if (v === 'off') return 0;
  if (v === 'fast') return 0.25;
  if (v === 'slow') return 1.8;
  return 1;
}
