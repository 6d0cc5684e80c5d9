"""The one stylesheet of every HTML page (recaps, Exposure timelines, dice statistics, and the
table server's pages: the log, sheets, forms) and the page around it: inline CSS, no external
asset (no web font, no image). Readable on a phone (390 px) as on a desktop, and on paper."""

from __future__ import annotations

from html import escape

STYLESHEET = """
:root{color-scheme:light;--ink:#1f2328;--muted:#57606a;--faint:#656d76;--rule:#d0d7de;
--tint:#f6f8fa;--accent:#1f6feb;--warn:#9a6700;--bad:#d1242f;--good:#1a7f37}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:60rem;
margin:2rem auto;padding:0 1rem;color:var(--ink);background:#fff;line-height:1.45;
overflow-wrap:break-word}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 .5rem}
h2{font-size:1.2rem;margin-top:1.8rem;padding-bottom:.2rem;border-bottom:1px solid var(--rule)}
h3{font-size:1.05rem;margin-top:1.4rem}
ul{padding-left:1.4rem}li{margin:.2rem 0}
.meta{color:var(--muted)}.ruling{font-weight:600;color:var(--muted)}.who{font-weight:600}
.amended{color:var(--warn);font-style:italic}.correction{margin-bottom:.6rem}
.scroll{overflow-x:auto;margin:1rem 0}
table{border-collapse:collapse;width:100%;font-size:.9rem}
td,th{border:1px solid var(--rule);padding:.3rem .5rem;vertical-align:top;text-align:left}
th{background:var(--tint)}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tr.voided td{color:var(--faint);text-decoration:line-through}
tr.voided td.notes{text-decoration:none}
figure.chart{margin:1rem 0 1.5rem}
figure.chart figcaption{color:var(--muted);font-size:.9rem;margin-top:.3rem}
svg.chart{display:block;width:100%;height:auto;font-family:inherit}
svg.chart text{fill:var(--ink)}
svg.chart .tick,svg.chart .axis-title,svg.chart .session text{fill:var(--muted)}
svg.chart .grid{stroke:var(--rule);stroke-width:1}
svg.chart .axis{stroke:var(--muted);stroke-width:1}
svg.chart .boundary{stroke:var(--faint);stroke-dasharray:4 3}
svg.chart .leader{stroke:var(--faint);stroke-width:1}
svg.chart .label{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
svg.exposure-chart{max-width:36rem}
svg.dice-chart{max-width:32rem}
svg.dice-chart .bar{fill:var(--accent)}
svg.dice-chart .expected{stroke:var(--bad);stroke-width:1.5;stroke-dasharray:6 4}
svg.dice-chart text.expected-label{fill:var(--bad)}
.verdict{margin:.4rem 0 0;font-weight:600}.verdict.fair{color:var(--good)}
.verdict.uneven{color:var(--warn)}.verdict.unfair{color:var(--bad)}
.note{color:var(--warn);margin:.3rem 0}
.dice{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,24rem),1fr));gap:0 2rem}
.die{margin-bottom:1.5rem;min-width:0}
nav.bar{display:flex;flex-wrap:wrap;gap:.2rem .5rem;align-items:baseline;padding:.4rem 0;
margin-bottom:.8rem;border-bottom:1px solid var(--rule)}
form.inline{display:inline}button.link{background:none;border:0;color:var(--accent);padding:0;
font:inherit;text-decoration:underline;cursor:pointer}
.live{font-size:.8rem;color:var(--faint)}.live.on{color:var(--good)}
.layout{display:grid;grid-template-columns:minmax(0,1fr);gap:0 2rem}
@media (min-width:60rem){.layout{grid-template-columns:minmax(0,2fr) minmax(0,1fr)}}
ol.log{list-style:none;padding:0;margin:0}
li.entry{border:1px solid var(--rule);border-radius:6px;padding:.4rem .6rem;margin:.4rem 0}
li.entry p{margin:.15rem 0}li.entry ul.lines{margin:.2rem 0}
li.entry.undone>.head,li.entry.undone>ul.lines{color:var(--faint);text-decoration:line-through}
li.entry.disputed{border-left:4px solid var(--warn)}li.entry.hidden-entry{background:var(--tint)}
.struck-note{color:var(--bad);font-weight:600}.dispute-note{color:var(--warn)}
.badge{font-size:.75rem;border:1px solid var(--faint);border-radius:4px;padding:0 .3rem}
details.act,details.verb{display:inline-block;margin:.2rem .4rem .2rem 0;vertical-align:top}
details.verb{display:block;border:1px solid var(--rule);border-radius:6px;padding:.3rem .6rem;
margin:0}
details.verb.expected{border-color:var(--accent);border-width:2px}
form.for{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center;margin:.2rem 0}
.verbs,.controls{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,12rem),1fr));
gap:.35rem .5rem}.verbs details[open],.controls details[open]{grid-column:1/-1}
details[open].act{display:block}
summary{cursor:pointer;color:#0550ae}
form.post{display:grid;gap:.25rem;max-width:32rem;margin:.3rem 0}
form.post label{font-size:.9rem;color:var(--muted)}form.post label.check{color:var(--ink)}
input,select,textarea,button{font:inherit;max-width:100%}
input,select,textarea{padding:.35rem .45rem;border:1px solid var(--rule);border-radius:4px}
button{padding:.35rem .8rem;border:1px solid var(--accent);border-radius:4px;
background:var(--accent);color:#fff;cursor:pointer}
button:disabled{opacity:.6}
.said{font-size:.9rem;color:var(--good)}.said.refusal,.refusal{color:var(--bad)}
pre.sheet{overflow-x:auto;background:var(--tint);padding:.6rem;border-radius:6px;font-size:.85rem}
ul.characters li.yours a{font-weight:600}.status{color:var(--muted);font-size:.9rem}
@media (max-width:40rem){
body{margin:1rem auto;padding:0 .75rem}h1{font-size:1.35rem}h2{font-size:1.1rem}
table{font-size:.85rem}td,th{padding:.25rem .35rem}
table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}
table.stack tr:first-child{display:none}
table.stack tr{border:1px solid var(--rule);margin-bottom:.6rem}
table.stack td{border:0;border-top:1px solid var(--tint);padding:.2rem .5rem}
table.stack td:first-child{border-top:0;font-weight:600;background:var(--tint)}
table.stack td[data-label]::before{content:attr(data-label) ":";display:inline-block;
margin-right:.35em;color:var(--muted);font-weight:600}
table.stack td:empty{display:none}
}
@media print{
body{max-width:none;margin:0;padding:0;color:#000;font-size:11pt}
h2,h3{break-after:avoid}figure,tr,li,.correction,.die{break-inside:avoid}
.scroll{overflow:visible}svg.chart{max-width:100%}
}
.thread article{border-left:3px solid var(--rule);padding:.2rem 0 .2rem .8rem;margin:.8rem 0}
.thread article.narration{border-color:var(--accent)}.thread article.npc{border-color:var(--warn)}
.thread article.ooc{color:var(--muted)}.thread article.ruling{border-color:var(--tint)}
.thread article.struck .text{text-decoration:line-through;color:var(--faint)}
.thread article .text p{margin:.3rem 0}
.thread .mark{color:var(--warn);font-style:italic;margin:.2rem 0}
.roll{background:var(--tint);border-radius:.3rem;padding:0 .3rem;white-space:nowrap}
.roll .why{color:var(--muted)}
.skip{position:absolute;left:-999px;top:0}
.skip:focus{left:.5rem;background:#fff;padding:.3rem .6rem;z-index:2;border:2px solid var(--accent)}
ol.thread li.entry{border:0;border-left:3px solid var(--rule);border-radius:0;
padding:.2rem .2rem .2rem .7rem;margin:.6rem 0}
ol.thread li.entry.post .head .who{font-size:1.02rem}
ol.thread li.entry.narration{border-left-color:var(--accent);background:#f3f7fe}
ol.thread li.entry.narration .text{font-style:italic}
ol.thread li.entry.npc{border-left-color:var(--warn)}
ol.thread li.entry.npc .who::before{content:"NPC ";font-size:.75rem;color:var(--warn)}
ol.thread li.entry.ooc{color:var(--muted);border-left-style:dashed}
ol.thread li.entry.private{background:#fff8e6}
ol.thread li.entry.card{margin-left:1.2rem;border:1px solid var(--rule);border-radius:6px;
font-size:.92rem;background:var(--tint)}
ol.thread li.entry .text p{margin:.2rem 0}
ol.thread li.entry.undone>.text,ol.thread li.entry.undone>.head,ol.thread li.entry.undone>ul.lines{
color:var(--muted);text-decoration:line-through}
.die-face{display:inline-block;min-width:1.6em;text-align:center;border:1px solid var(--muted);
border-radius:4px;margin-right:.2rem;font-weight:600;background:#fff}
.fold{font-size:.9rem;color:var(--muted)}.mark{font-style:italic}
nav.sessions{margin:.2rem 0 .6rem}
.composer{margin-top:1.5rem;border-top:2px solid var(--accent);padding-top:.4rem}
.composer-grid{display:grid;grid-template-columns:minmax(0,1fr);gap:0 2rem;align-items:start}
html{scroll-padding:.5rem 0 4.5rem}#f-post-text{scroll-margin-top:7rem}
#table{padding-bottom:3.5rem}
a.write-now{position:fixed;right:1rem;bottom:1rem;z-index:3;padding:.55rem 1.1rem;
border-radius:2rem;background:var(--accent);color:#fff;font-weight:600;text-decoration:none;
box-shadow:0 1px 5px rgba(0,0,0,.35)}
a.write-now:focus-visible{outline:3px solid var(--ink);outline-offset:2px}
a.write-now.by{display:none}
.new-since{display:block;margin:0 0 .3rem;border-top:2px solid var(--bad);color:var(--bad);
font-size:.8rem;font-weight:600}
.badge.new{color:var(--bad);border-color:var(--bad)}
ul.lines.was,ul.lines.now,ul.lines.then{list-style:none;padding-left:0}
ul.lines.was li,p.was{color:var(--muted)}
.tag{display:inline-block;font-size:.7rem;font-weight:600;text-transform:uppercase;
border:1px solid currentColor;border-radius:3px;padding:0 .25rem;margin-right:.3rem}
ul.lines.now .tag{color:var(--good)}
@media (min-width:40rem){
ol.thread li.entry{display:grid;grid-template-columns:minmax(0,1fr) auto;grid-auto-flow:dense;
column-gap:.6rem}
ol.thread li.entry>*{grid-column:1/-1}
ol.thread li.entry>.head{grid-column:1}
ol.thread li.entry>.acts{grid-column:2;justify-self:end;align-self:start}
ol.thread li.entry>.acts:has(details[open]){grid-column:1/-1;justify-self:stretch}
ol.thread li.entry>.acts details.act{margin:.1rem 0 .1rem .5rem}
}
form.writer{max-width:none;align-content:start}form.writer textarea{width:100%}
form.writer .as{display:flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:center}
details.group{margin:.3rem 0}details.group>summary{font-weight:600}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);
white-space:nowrap}
.badge{background:#fff;color:var(--ink);display:inline-block}
.badge.good{color:var(--good);border-color:var(--good)}
.badge.warn{color:var(--warn);border-color:var(--warn)}
.badge.bad{color:var(--bad);border-color:var(--bad)}
section.drawn h2{font-size:1.05rem;margin-top:1.2rem}
table.grid{table-layout:fixed;overflow-wrap:anywhere}
table.grid th[scope=col]{text-align:center}table.grid td{font-size:.85rem}
table.grid .cell-name{font-weight:600;margin-right:.2rem}
table.grid td .badge{margin:.1rem .1rem 0 0}
.legend .badge{margin-left:.3rem}
.bar-text{margin:.2rem 0}
svg.bar{display:block;width:100%;max-width:24rem;height:.9rem;border:1px solid var(--muted);
border-radius:3px}
svg.bar .track{fill:var(--tint)}svg.bar .fill{fill:var(--accent)}
svg.bar .fill.good{fill:var(--good)}svg.bar .fill.warn{fill:var(--warn)}
svg.bar .fill.bad{fill:var(--bad)}
dl.rows{margin:.3rem 0;display:grid;grid-template-columns:fit-content(45%) minmax(0,1fr);
gap:.15rem .8rem}
dl.rows{overflow-wrap:anywhere}dl.rows .row{display:contents}dl.rows dt{font-weight:600}
dl.rows dd{margin:0}
dl.rows .badge{margin-left:.25rem}
ol.ladder{list-style:none;padding:0;margin:.3rem 0;border-left:4px solid var(--rule)}
ol.ladder li{padding:.15rem .5rem;margin:0;border-left:4px solid transparent;margin-left:-4px}
ol.ladder li.reached{border-left-color:var(--accent)}
ol.ladder li.here{background:var(--tint);font-weight:600}
ol.ladder .level{display:inline-block;min-width:1.6em;font-variant-numeric:tabular-nums;
color:var(--muted)}
ol.ladder .step-value{margin-left:1.9em;font-weight:400}
section.turns{border:1px solid var(--rule);border-radius:6px;padding:.2rem .7rem .4rem;
margin:.6rem 0}
section.turns h2{font-size:1.05rem;margin:.3rem 0;border:0}
section.turns h3{font-size:.95rem;margin:.4rem 0 .1rem}
section.turns ol,section.turns ul{margin:.1rem 0}section.turns li.now{font-weight:600}
details.sheet-text{margin:1rem 0}
"""


def e(text: object) -> str:
    """``text`` escaped for HTML text and attribute values."""
    return escape(str(text), quote=True)


def page(title: str, body: list[str]) -> str:
    """A whole HTML page: ``body``'s parts, one a line, under the shared stylesheet."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(title)}</title><style>{STYLESHEET}</style></head><body>\n<main>\n"
        + "\n".join(body)
        + "\n</main>\n</body></html>\n"
    )
