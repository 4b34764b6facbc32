// Zoom and pan for a board drawn in SVG (docs/client.md "Readable boards"): the component
// changes the SVG's viewBox only, so the board's own drawing code is untouched. Mouse wheel and
// pinch zoom around the pointer, a drag pans (a click without a drag still reaches the board),
// buttons (−, +, whole board, and "follow my bot" when the table gives something to follow) and
// keys (+ / − / 0, F for follow). The SVG keeps the size of the whole board's aspect (or the
// height the stylesheet gives it), so zooming never changes the page's layout.

import { h } from '../dom.js';

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

export class Zoom {
  /**
   * `svg`: the board; `full`: [x, y, w, h] of the whole board in SVG units; `opts.minWidth`: the
   * narrowest view in SVG units (the closest zoom); `opts.follow`: a label for the follow button
   * (none: no button); `opts.name`: what the "whole" button says ("Whole track").
   */
  constructor(svg, full, opts = {}) {
    this.svg = svg;
    this.full = full;
    this.minWidth = opts.minWidth || full[2] / 8;
    this.vb = [...full];
    this.following = false;
    this.target = null;
    this.anim = null;
    this.onFollowChange = opts.onFollowChange || (() => {});
    svg.classList.add('zoomable');
    svg.dataset.zoom = 'fit';
    const btn = (label, title, f, id) => h('button.btn.small.zoom-btn', { type: 'button', title, 'aria-label': title, 'data-zoom': id, onclick: f }, label);
    this.followBtn = opts.follow ? h('button.btn.small.zoom-btn.follow', { type: 'button', 'data-zoom': 'follow', 'aria-pressed': 'false', title: `${opts.follow} (F)`, onclick: () => this.setFollow(!this.following, true) }, opts.follow) : null;
    this.el = h('div.zoom-bar', { role: 'toolbar', 'aria-label': 'Zoom' }, [
      btn('−', 'Zoom out (−)', () => this.zoomBy(1.4), 'out'),
      btn('+', 'Zoom in (+)', () => this.zoomBy(1 / 1.4), 'in'),
      btn(opts.name || 'Whole board', `${opts.name || 'Whole board'} (0)`, () => { this.setFollow(false); this.fit(); }, 'fit'),
      this.followBtn,
    ]);
    this.wire();
    this.apply();
  }

  /** The view as [x, y, w, h] (SVG units). */
  get view() { return [...this.vb]; }

  /** SVG units per screen pixel (the viewBox is fitted inside the element: "meet"). */
  unitsPerPx() {
    const r = this.svg.getBoundingClientRect();
    if (!r.width || !r.height) return 1;
    return Math.max(this.vb[2] / r.width, this.vb[3] / r.height);
  }

  set(vb, reason) {
    const [fx, fy, fw, fh] = this.full;
    const ratio = fh / fw;
    const w = clamp(vb[2], this.minWidth, fw);
    const hgt = w * ratio;
    const cx = vb[0] + vb[2] / 2, cy = vb[1] + vb[3] / 2;
    // The centre stays over the board.
    const x = clamp(cx, fx + w / 2, fx + fw - w / 2) - w / 2;
    const y = clamp(cy, fy + hgt / 2, fy + fh - hgt / 2) - hgt / 2;
    this.vb = [x, y, w, hgt];
    this.svg.dataset.zoom = w >= fw - 0.5 ? 'fit' : reason || 'zoomed';
    this.apply();
  }

  apply() { this.svg.setAttribute('viewBox', this.vb.map((v) => v.toFixed(1)).join(' ')); }

  fit() { this.stop(); this.set(this.full, 'fit'); }

  /** Zoom by `f` (< 1: closer) around the SVG point `at` (default: the view's centre). */
  zoomBy(f, at) {
    this.stop();
    const [x, y, w, hh] = this.vb;
    const [ax, ay] = at || [x + w / 2, y + hh / 2];
    const nw = clamp(w * f, this.minWidth, this.full[2]);
    const k = nw / w;
    this.set([ax - (ax - x) * k, ay - (ay - y) * k, w * k, hh * k], 'zoomed');
    if (this.following && this.target) this.centreOn(this.target, 0);
  }

  /** Show `w` SVG units across (keeping the centre). */
  zoomTo(w) { const [x, y, vw, vh] = this.vb; const cx = x + vw / 2, cy = y + vh / 2; this.set([cx - w / 2, cy - (w * vh / vw) / 2, w, w * vh / vw], 'zoomed'); }

  /** Move the view's centre to the SVG point `p`, smoothly over `ms`. */
  centreOn(p, ms = 250) {
    this.stop();
    const [x0, y0, w, hh] = this.vb;
    const to = [p[0] - w / 2, p[1] - hh / 2];
    if (!ms || !window.requestAnimationFrame) { this.set([to[0], to[1], w, hh], this.svg.dataset.zoom); return; }
    const t0 = performance.now();
    const reason = this.svg.dataset.zoom;
    const step = (t) => {
      const k = Math.min(1, (t - t0) / ms);
      const e = k * (2 - k);
      this.set([x0 + (to[0] - x0) * e, y0 + (to[1] - y0) * e, w, hh], reason);
      this.anim = k < 1 ? requestAnimationFrame(step) : null;
    };
    this.anim = requestAnimationFrame(step);
  }

  stop() { if (this.anim) cancelAnimationFrame(this.anim); this.anim = null; }

  /** The point to follow (SVG units); followed at once when following. */
  track(p, ms = 250) {
    this.target = p;
    if (this.following && p) this.centreOn(p, ms);
  }

  setFollow(on, byUser = false) {
    this.following = on;
    if (this.followBtn) {
      this.followBtn.setAttribute('aria-pressed', String(on));
      this.followBtn.classList.toggle('on', on);
    }
    this.svg.dataset.follow = on ? 'on' : 'off';
    if (on && this.target) this.centreOn(this.target, byUser ? 250 : 0);
    this.onFollowChange(on);
  }

  /** A key for the zoom: true when it was one. */
  key(e) {
    const tag = (e.target && e.target.tagName || '').toLowerCase();
    if (e.ctrlKey || e.metaKey || e.altKey || tag === 'input' || tag === 'textarea' || tag === 'select') return false;
    if (e.key === '+' || e.key === '=') this.zoomBy(1 / 1.4);
    else if (e.key === '-' || e.key === '_') this.zoomBy(1.4);
    else if (e.key === '0') { this.setFollow(false); this.fit(); }
    else if ((e.key === 'f' || e.key === 'F') && this.followBtn) this.setFollow(!this.following, true);
    else return false;
    e.preventDefault();
    return true;
  }

  toSvg(clientX, clientY) {
    const m = this.svg.getScreenCTM();
    if (!m) return [this.vb[0] + this.vb[2] / 2, this.vb[1] + this.vb[3] / 2];
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  wire() {
    const svg = this.svg;
    svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.zoomBy(Math.exp(clamp(e.deltaY, -200, 200) * 0.002), this.toSvg(e.clientX, e.clientY));
    }, { passive: false });
    const pts = new Map();
    let drag = null;
    let pinch = null;
    let dragged = false;
    svg.addEventListener('pointerdown', (e) => {
      pts.set(e.pointerId, [e.clientX, e.clientY]);
      dragged = false;
      if (pts.size === 1) drag = { x: e.clientX, y: e.clientY, vb: [...this.vb], upp: this.unitsPerPx(), moved: false };
      else if (pts.size === 2) {
        const [a, b] = [...pts.values()];
        pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, vb: [...this.vb], at: this.toSvg((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) };
        drag = null;
      }
    });
    svg.addEventListener('pointermove', (e) => {
      if (!pts.has(e.pointerId)) return;
      pts.set(e.pointerId, [e.clientX, e.clientY]);
      if (pinch && pts.size >= 2) {
        const [a, b] = [...pts.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
        this.vb = [...pinch.vb];
        this.zoomBy(pinch.d / d, pinch.at);
        dragged = true;
      } else if (drag) {
        const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
        if (!drag.moved && Math.hypot(dx, dy) < 6) return;
        if (!drag.moved) { drag.moved = true; try { svg.setPointerCapture(e.pointerId); } catch { /* gone */ } }
        dragged = true;
        if (this.following) this.setFollow(false);
        this.stop();
        this.set([drag.vb[0] - dx * drag.upp, drag.vb[1] - dy * drag.upp, drag.vb[2], drag.vb[3]], 'panned');
      }
    });
    const up = (e) => { pts.delete(e.pointerId); if (pts.size < 2) pinch = null; if (!pts.size) drag = null; };
    svg.addEventListener('pointerup', up);
    svg.addEventListener('pointercancel', up);
    // A drag is not a click on the board (re-entry cells, start hexes).
    svg.addEventListener('click', (e) => { if (dragged) { e.stopPropagation(); e.preventDefault(); dragged = false; } }, true);
    svg.style.touchAction = 'none';
  }
}

/** A `<details>` beside a board (a legend, the chart) is open on a desktop and folded on a phone,
 * also when the window changes between the two (the phone layout keeps board and controls on
 * one screen). */
export function foldOnPhone(details) {
  const mq = window.matchMedia('(max-width: 900px)');
  details.open = !mq.matches;
  const on = () => {
    if (!details.isConnected && details.dataset.placed) { mq.removeEventListener('change', on); return; }
    details.open = !mq.matches;
  };
  mq.addEventListener('change', on);
  requestAnimationFrame(() => { details.dataset.placed = '1'; });
  return details;
}
