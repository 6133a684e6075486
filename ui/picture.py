"""Draw a program's walk (engine.programs.walk.Walk) as a small inline SVG, left to right.

Drawn here, in-process, with no library: a walk is a handful of nodes in layers (entities on the left, the
answers on the right), which a layered layout places in well under a millisecond. Graphviz (`dot -Tsvg`)
took 26 ms median per picture on the dev machine (2 cores, a 6-node walk) and needs a system package on a
Space; a JS network view would have to be served by the app (no CDN here) and laid out in the browser.
Every label is escaped: KG labels are data, never markup.
"""

from __future__ import annotations

import base64
import html

CHAR_W, LINE_H, PAD, GAP_X, GAP_Y = 7.4, 17, 8, 110, 14  # CHAR_W: a bold character, roughly
FILL = {"entity": "#dbeafe", "value": "#ede9fe", "class": "#ede9fe", "set": "#f3f4f6", "step": "#fef3c7",
        "answers": "#dcfce7"}
STROKE = {"entity": "#2563eb", "value": "#7c3aed", "class": "#7c3aed", "set": "#9ca3af", "step": "#d97706",
          "answers": "#16a34a"}
MAX_CHARS = 36  # a longer line is cut with "…"


def walk_svg(walk) -> str:
    """The walk as one <svg> element (no scripts, no external references)."""
    if walk is None or not walk.nodes:
        return ""
    lines = {n.id: _lines(n) for n in walk.nodes}
    size = {k: (max(len(t) for t, _ in ls) * CHAR_W + 2 * PAD, len(ls) * LINE_H + PAD) for k, ls in lines.items()}
    layers = _layers(walk)
    columns: dict[int, list[str]] = {}
    for node in walk.nodes:
        columns.setdefault(layers[node.id], []).append(node.id)
    widths = {c: max(size[k][0] for k in ids) for c, ids in columns.items()}
    heights = {c: sum(size[k][1] for k in ids) + GAP_Y * (len(ids) - 1) for c, ids in columns.items()}
    total_h = max(heights.values()) + 2 * PAD
    place, x = {}, PAD
    for c in sorted(columns):
        y = PAD + (total_h - 2 * PAD - heights[c]) / 2
        for k in columns[c]:
            place[k] = (x + (widths[c] - size[k][0]) / 2, y)
            y += size[k][1] + GAP_Y
        x += widths[c] + GAP_X
    total_w = x - GAP_X + PAD
    parts = [
        f'<svg class="kgs-walk" xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" '
        f'viewBox="0 0 {total_w:.0f} {total_h:.0f}" role="img" aria-label="{html.escape(_summary(walk))}" '
        'font-family="ui-sans-serif, system-ui, sans-serif" font-size="12">',
        '<defs><marker id="kgs-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#6b7280"/></marker></defs>',
    ]
    parts += [_edge(e, place, size) for e in walk.edges]
    parts += [_box(n, place[n.id], size[n.id], lines[n.id]) for n in walk.nodes]
    parts.append("</svg>")
    return "".join(parts)


def walk_image(walk) -> str:
    """The walk as an <img> whose source is the SVG itself (a data: URI): the chat's sanitizer strips an inline
    <svg>'s markers and viewBox, but an image keeps the drawing whole and can run nothing. The alt text names
    the entities and relations, for screen readers and tests."""
    svg = walk_svg(walk)
    if not svg:
        return ""
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return f'<img class="kgs-walk" alt="{html.escape(_summary(walk))}" src="data:image/svg+xml;base64,{data}">'


def _lines(node) -> list[tuple[str, bool]]:
    """(text, bold) lines of a node's box: its label, then its first members and "+N more"."""
    out = [(_cut(node.label), True)]
    out += [(_cut(m), False) for m in node.members]
    if node.more:
        out.append((f"+{node.more:,} more", False))
    return out


def _cut(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= MAX_CHARS else text[: MAX_CHARS - 1] + "…"


def _layers(walk) -> dict[str, int]:
    """Each node's column: the longest walk from a node nothing leads to (the walk is acyclic)."""
    succ: dict[str, list[str]] = {n.id: [] for n in walk.nodes}
    for e in walk.edges:
        a, b = (e.target, e.source) if e.against else (e.source, e.target)
        succ[a].append(b)
    layer = {n.id: 0 for n in walk.nodes}
    for _ in range(len(walk.nodes)):  # relax: at most n rounds on an acyclic graph
        changed = False
        for a, bs in succ.items():
            for b in bs:
                if layer[b] < layer[a] + 1:
                    layer[b], changed = layer[a] + 1, True
        if not changed:
            break
    return layer


def _edge(edge, place, size) -> str:
    a, b = (edge.target, edge.source) if edge.against else (edge.source, edge.target)
    (ax, ay), (aw, ah) = place[a], size[a]
    (bx, by), (bw, bh) = place[b], size[b]
    x1, y1, x2, y2 = ax + aw, ay + ah / 2, bx, by + bh / 2
    marker = 'marker-start="url(#kgs-arrow)"' if edge.against else 'marker-end="url(#kgs-arrow)"'
    line = (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#6b7280" '
            f'stroke-width="1.3" {marker}/>')
    if not edge.label:
        return line
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2 - 5
    return line + (f'<text class="kgs-walk-relation" x="{mx:.1f}" y="{my:.1f}" text-anchor="middle" fill="#374151" '
                   f'stroke="white" stroke-width="3" paint-order="stroke">{html.escape(_cut(edge.label))}</text>')


def _box(node, at, size, lines) -> str:
    (x, y), (w, h) = at, size
    parts = [f'<g class="kgs-walk-{node.kind}"><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
             f'rx="6" fill="{FILL.get(node.kind, "#fff")}" stroke="{STROKE.get(node.kind, "#6b7280")}"/>']
    for i, (text, bold) in enumerate(lines):
        weight = ' font-weight="600"' if bold else ""
        parts.append(f'<text x="{x + PAD:.1f}" y="{y + PAD / 2 + LINE_H * (i + 1) - 4:.1f}"{weight} '
                     f'fill="#111827">{html.escape(text)}</text>')
    parts.append("</g>")
    return "".join(parts)


def _summary(walk) -> str:
    """A text alternative: the entities it starts from and the relations followed."""
    starts = [n.label for n in walk.nodes if n.kind in ("entity", "value")]
    relations = [e.label for e in walk.edges if e.label]
    text = "Path of the answer"
    if starts:
        text += " from " + ", ".join(starts)
    if relations:
        text += " through " + ", ".join(relations)
    return text
