// Tiny DOM helpers: h('div.cls#id', {attrs}, children), svg(...) for SVG elements.

const SVGNS = 'http://www.w3.org/2000/svg';

function build(ns, tag, attrs, children) {
  let [name, ...rest] = tag.split(/(?=[.#])/);
  const el = ns ? document.createElementNS(ns, name || 'div') : document.createElement(name || 'div');
  for (const r of rest) {
    if (r[0] === '.') el.classList.add(r.slice(1));
    else if (r[0] === '#') el.id = r.slice(1);
  }
  if (attrs && (typeof attrs !== 'object' || Array.isArray(attrs) || attrs instanceof Node)) {
    children = attrs;
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.setAttribute('class', [el.getAttribute('class'), v].filter(Boolean).join(' '));
    else if (k === 'style' && typeof v === 'object') for (const [p, x] of Object.entries(v)) el.style.setProperty(p.startsWith('--') ? p : p.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), x);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  if (children === undefined || children === null || children === false) return;
  if (Array.isArray(children)) children.forEach((c) => append(el, c));
  else if (children instanceof Node) el.appendChild(children);
  else el.appendChild(document.createTextNode(String(children)));
}

export const h = (tag, attrs, children) => build(null, tag, attrs, children);
export const s = (tag, attrs, children) => build(SVGNS, tag, attrs, children);
export const clear = (el) => { while (el.firstChild) el.removeChild(el.firstChild); return el; };
export const $ = (sel, root = document) => root.querySelector(sel);

export function toast(text, kind = 'info') {
  const box = $('#toasts');
  if (!box) return;
  const t = h(`div.toast.${kind}`, { role: 'status' }, text);
  box.appendChild(t);
  setTimeout(() => t.classList.add('gone'), 3500);
  setTimeout(() => t.remove(), 4200);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
