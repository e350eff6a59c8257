// The page's icons: small inline SVGs drawn here (24×24, stroked in the text colour), so they render the
// same everywhere (emoji need a font the machine may not have) and follow the theme. Icons only repeat
// what the words beside them say: they are hidden from screen readers unless given a label.
type Shape = [tag: "path" | "circle" | "rect", attrs: Record<string, string | number>];

const ICONS = {
  question: [
    ["circle", { cx: 12, cy: 12, r: 9 }],
    ["path", { d: "M9.6 9.3a2.5 2.5 0 1 1 3.6 2.3c-.7.4-1.2 1-1.2 1.8v.4" }],
    ["path", { d: "M12 17.2v.1" }],
  ],
  approval: [
    ["path", { d: "M12 3l7 3v5.2c0 4.4-2.9 8-7 9.8-4.1-1.8-7-5.4-7-9.8V6z" }],
    ["path", { d: "M9 12l2.2 2.2L15.5 10" }],
  ],
  working: [
    ["circle", { cx: 12, cy: 12, r: 9 }],
    ["path", { d: "M12 7.5V12l3 2" }],
  ],
  failed: [
    ["path", { d: "M10.3 4.2a2 2 0 0 1 3.4 0l7.4 13A2 2 0 0 1 19.4 20H4.6a2 2 0 0 1-1.7-2.8z" }],
    ["path", { d: "M12 9.5v4" }],
    ["path", { d: "M12 16.8v.1" }],
  ],
  check: [["path", { d: "M5 12.5l4.5 4.5L19 7.5" }]],
  x: [["path", { d: "M6.5 6.5l11 11M17.5 6.5l-11 11" }]],
  live: [["circle", { cx: 12, cy: 12, r: 4.5, fill: "currentColor", stroke: "none" }]],
  plus: [["path", { d: "M12 5v14M5 12h14" }]],
  send: [["path", { d: "M12 19V5.5M6.5 11L12 5.5 17.5 11" }]],
  stop: [["rect", { x: 7, y: 7, width: 10, height: 10, rx: 2, fill: "currentColor" }]],
  menu: [["path", { d: "M4 7h16M4 12h16M4 17h16" }]],
  close: [["path", { d: "M6.5 6.5l11 11M17.5 6.5l-11 11" }]],
  terminal: [
    ["rect", { x: 3, y: 4.5, width: 18, height: 15, rx: 2.5 }],
    ["path", { d: "M7 9.5l2.8 2.5L7 14.5M12.5 15h4.5" }],
  ],
  edit: [
    ["path", { d: "M4 20h4.2L19 9.2a2.1 2.1 0 0 0-3-3L5 17z" }],
    ["path", { d: "M14 8l3 3" }],
  ],
  file: [
    ["path", { d: "M6.5 3h7.5l4.5 4.5V21h-12z" }],
    ["path", { d: "M13.5 3v5h5" }],
  ],
  search: [
    ["circle", { cx: 10.5, cy: 10.5, r: 6 }],
    ["path", { d: "M15 15l5 5" }],
  ],
  tool: [["path", { d: "M14.5 5.5a4 4 0 0 0-5 5L4 16v4h4l5.5-5.5a4 4 0 0 0 5-5l-2.7 2.7-2.8-.7-.7-2.8z" }]],
  globe: [
    ["circle", { cx: 12, cy: 12, r: 9 }],
    [
      "path",
      { d: "M3 12h18M12 3c2.5 2.7 3.7 5.7 3.7 9s-1.2 6.3-3.7 9c-2.5-2.7-3.7-5.7-3.7-9S9.5 5.7 12 3z" },
    ],
  ],
  thought: [
    ["path", { d: "M9 18h6M10 21h4" }],
    ["path", { d: "M12 3a6 6 0 0 0-3.6 10.8c.7.5 1.1 1.2 1.1 2V16h5v-.2c0-.8.4-1.5 1.1-2A6 6 0 0 0 12 3z" }],
  ],
  plan: [
    ["path", { d: "M10 6.5h10M10 12h10M10 17.5h10" }],
    ["path", { d: "M4 6.5l1.3 1.3L7.5 5.5M4 12l1.3 1.3 2.2-2.3M4.5 17.5h2" }],
  ],
  bell: [
    ["path", { d: "M6 16.5V11a6 6 0 0 1 12 0v5.5l1.5 1.5h-15z" }],
    ["path", { d: "M10 20.5a2.2 2.2 0 0 0 4 0" }],
  ],
  bellOff: [
    ["path", { d: "M8.6 5.7A6 6 0 0 1 18 11v4.2M16.5 18h-12L6 16.5V11c0-.8.2-1.6.5-2.3" }],
    ["path", { d: "M10 20.5a2.2 2.2 0 0 0 4 0M3.5 3.5l17 17" }],
  ],
  unplugged: [
    ["path", { d: "M3.5 3.5l17 17" }],
    ["path", { d: "M9 4v3M15 4v3M7 9.5V11a5 5 0 0 0 8.3 3.7M17 13.2V9H11" }],
    ["path", { d: "M12 16v4" }],
  ],
  restart: [
    ["path", { d: "M19.5 12a7.5 7.5 0 1 1-2.2-5.3" }],
    ["path", { d: "M19.5 4.5v4.2h-4.2" }],
  ],
  trash: [["path", { d: "M5 7h14M10 7V5h4v2M7 7l1 12h8l1-12M10.5 10.5v5.5M13.5 10.5v5.5" }]],
  chevron: [["path", { d: "M9.5 6.5L15 12l-5.5 5.5" }]],
  copy: [
    ["rect", { x: 8.5, y: 8.5, width: 11, height: 11, rx: 2 }],
    ["path", { d: "M15.5 8.5V6.5a2 2 0 0 0-2-2h-7a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h2" }],
  ],
  spark: [["path", { d: "M12 3.5l1.9 5.1 5.1 1.9-5.1 1.9-1.9 5.1-1.9-5.1L5 10.5l5.1-1.9z" }]],
} satisfies Record<string, Shape[]>;

export type IconName = keyof typeof ICONS;

const SVG = "http://www.w3.org/2000/svg";

/** An inline SVG icon; decorative (aria-hidden) unless `label` names it for screen readers. */
export function icon(name: IconName, label?: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "1em");
  svg.setAttribute("height", "1em");
  svg.setAttribute("fill", "none");
  svg.setAttribute("stroke", "currentColor");
  svg.setAttribute("stroke-width", "1.8");
  svg.setAttribute("stroke-linecap", "round");
  svg.setAttribute("stroke-linejoin", "round");
  svg.setAttribute("class", `icon icon-${name}`);
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
  }
  for (const [tag, attrs] of ICONS[name] as Shape[]) {
    const shape = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) shape.setAttribute(k, String(v));
    svg.append(shape);
  }
  return svg;
}
