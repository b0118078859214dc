// The dashboard's only stylesheet and script, served by the sandbox itself (no CDN, no build
// step): pages load them with their CSP nonce. The script keeps the page live: it listens to the
// dashboard's event stream and, on a change, fetches the page again and swaps in each region
// marked `data-live` (by id); a page about one payment (`data-live-topic` on <main>) only on
// that payment's changes. Without script the pages work the same, only not live.
import type { RequestHandler } from 'express'

export const ASSET_PATHS = { style: '/dashboard/assets/dashboard.css', script: '/dashboard/assets/live.js' } as const

const STYLE = `
:root{--ink:#1a1a2e;--muted:#4a4a5e;--line:#d0d3dc;--accent:#1d4ed8;--bg:#f7f8fb;--ok:#166534;--bad:#991b1b;--warn:#854d0e}
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;color:var(--ink);background:var(--bg);line-height:1.45}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem}
.skip:focus{left:.5rem}
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.75rem 1.25rem;background:#fff;border-bottom:1px solid var(--line)}
.brand{font-weight:700;text-decoration:none;color:var(--ink)}
header nav ul{display:flex;gap:.25rem;list-style:none;margin:0;padding:0}
header nav a{display:block;padding:.35rem .7rem;border-radius:.4rem;text-decoration:none}
header nav a[aria-current=page]{background:var(--ink);color:#fff}
.session{margin-left:auto;display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}
main{padding:1.25rem;max-width:72rem;margin:0 auto}
main:focus{outline:none}
h1{font-size:1.4rem;margin:.25rem 0 1rem}
h2{font-size:1.1rem;margin:1.75rem 0 .5rem}
h3{font-size:1rem;margin:0}
.actions p{margin:0;color:var(--muted);font-size:.9rem}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.85rem;color:var(--muted)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
code,.mono{font-family:ui-monospace,monospace;font-size:.85rem;overflow-wrap:anywhere}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;background:#fff;padding:1rem;border:1px solid var(--line);border-radius:.5rem}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
form.filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end;margin-bottom:1rem}
form.filters div,form.stack div{display:flex;flex-direction:column;gap:.2rem}
form.stack{display:flex;flex-direction:column;gap:.75rem;max-width:24rem}
form.inline{display:inline-flex;gap:.4rem;align-items:center;margin:0}
label{font-size:.85rem;color:var(--muted)}
input,select,button,.button{font:inherit;padding:.4rem .6rem;border-radius:.4rem;border:1px solid #767676}
button,.button{background:var(--ink);color:#fff;border-color:var(--ink);cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#fff;color:var(--ink)}
button.danger{background:var(--bad);border-color:var(--bad)}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:1rem;font-size:.8rem;background:#e5e7eb;color:var(--ink)}
.status-paid,.status-settled,.status-success{background:#dcfce7;color:var(--ok)}
.status-failed,.status-expired,.status-canceled,.status-failure{background:#fee2e2;color:var(--bad)}
.status-underpaid,.status-overpaid,.status-pending{background:#fef3c7;color:var(--warn)}
.notice{padding:.75rem 1rem;border-radius:.5rem;background:#eef0f6;border:1px solid var(--line)}
.notice.error{background:#fee2e2;color:var(--bad);border-color:#fca5a5}
.pager{display:flex;gap:1rem;align-items:center;margin-top:1rem}
.actions{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:1rem;align-items:start}
.actions form{background:#fff;border:1px solid var(--line);border-radius:.5rem;padding:.75rem;display:flex;flex-direction:column;gap:.5rem}
.timeline{list-style:none;padding:0;margin:0;border-left:3px solid var(--line)}
.timeline li{padding:.25rem 0 .5rem 1rem}
.qr{width:12rem;height:auto;image-rendering:pixelated;background:#fff}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:1.25rem}
pre.wire{background:#fff;border:1px solid var(--line);border-radius:.5rem;padding:.75rem;margin:0;overflow:auto;max-height:24rem;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85rem}
tr.differs{background:#fef3c7}
/* Overview charts (inline SVG): colours here, as the CSP allows no style attributes. */
.chart{width:100%;max-width:32rem;height:auto;background:#fff;border:1px solid var(--line);border-radius:.5rem;padding:.5rem}
.chart-label,.chart-value{font-size:12px;fill:var(--muted)}
.chart-axis{stroke:var(--line)}
.bar{fill:var(--accent)}
.bar-paid,.bar-success{fill:var(--ok)}
.bar-failed,.bar-expired,.bar-canceled,.bar-failure{fill:var(--bad)}
.bar-underpaid{fill:var(--warn)}
.legend{font-size:.85rem;color:var(--muted)}
.key{display:inline-block;width:.8rem;height:.8rem;border-radius:.15rem}
.key-success{background:var(--ok)}.key-failure{background:var(--bad)}
`

const SCRIPT = `(function(){
'use strict';
var regions=document.querySelectorAll('[data-live]');
if(regions.length===0||!window.EventSource)return;
var root=document.documentElement,busy=false,again=false;
function refresh(){
if(busy){again=true;return}
busy=true;
fetch(location.href,{credentials:'same-origin'})
.then(function(r){return r.ok?r.text():null})
.then(function(text){
if(text===null)return;
var doc=new DOMParser().parseFromString(text,'text/html');
document.querySelectorAll('[data-live]').forEach(function(region){
var fresh=region.id&&doc.getElementById(region.id);
// A region the user is typing or tabbing in stays as it is until the next change.
if(fresh&&!region.contains(document.activeElement))region.replaceWith(document.importNode(fresh,true))});
root.setAttribute('data-live-refreshes',String(Number(root.getAttribute('data-live-refreshes')||0)+1))})
.catch(function(){})
.then(function(){busy=false;if(again){again=false;refresh()}})}
var source=new EventSource('/dashboard/events');
// On every (re)connection: whatever changed while it was not listening is fetched too.
source.addEventListener('ready',function(){root.setAttribute('data-live','connected');refresh()});
// A page about one payment (data-live-topic) refreshes only on that payment's changes.
var topic=document.getElementById('main').getAttribute('data-live-topic');
source.addEventListener('change',function(event){
var change;try{change=JSON.parse(event.data)}catch(e){change={}}
if(!topic||change.paymentId===topic)refresh()});
source.addEventListener('error',function(){root.setAttribute('data-live','reconnecting')});
})();`

const serve =
  (type: string, body: string): RequestHandler =>
  (_req, res) => {
    res.type(type).set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }).send(body)
  }

export const serveStyle = serve('text/css', STYLE)
export const serveScript = serve('text/javascript', SCRIPT)
