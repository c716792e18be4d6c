// Boards: reading each game's position string and drawing it as SVG.
//
// A board is drawn from a model: the game, its options, the position, the legal moves of the
// side to move (when the viewer may move), forbidden points, the last move and the position
// before it (for Reversi's flips and the Chinese Checkers hop chain), and a hint.

const SVG = "http://www.w3.org/2000/svg";

export const PLAYER_COLOURS = ["#d62828", "#1d4ed8", "#15803d", "#e0a800", "#7c3aed", "#7a4a1e"];

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// ---- Reading positions ----

// Reversi: N*N squares from a1 (top-left) row by row, X black, O white, - empty; then the side.
export function parseReversi(text, size) {
  const [board, side] = text.trim().split(/\s+/);
  const cells = [];
  for (let index = 0; index < size * size; index++) {
    const c = (board[index] || "-").toUpperCase();
    cells.push(c === "X" || c === "*" || c === "B" ? 1 : c === "O" || c === "W" ? 2 : 0);
  }
  return { size, cells, toMove: /^[xb*]/i.test(side || "x") ? 0 : 1 };
}

// Gomoku: rows from the top separated by '/', x black, o white; then the side.
export function parseGomoku(text, size) {
  const [board, side] = text.trim().split(/\s+/);
  const rows = board.split("/");
  const cells = [];
  for (let row = 0; row < size; row++) {
    const line = rows[row] || "";
    for (let column = 0; column < size; column++) {
      const c = (line[column] || ".").toLowerCase();
      cells.push(c === "x" ? 1 : c === "o" ? 2 : 0);
    }
  }
  return { size, cells, toMove: /^[xb]/i.test(side || "x") ? 0 : 1 };
}

// Chinese Checkers: 121 holes in order, '.' empty, '1'..'6' a player's piece; then the player.
export function parseChineseCheckers(text) {
  const [board, side, finished] = text.trim().split(/\s+/);
  const cells = [];
  for (let hole = 0; hole < 121; hole++) {
    const c = board[hole] || ".";
    cells.push(c >= "1" && c <= "6" ? Number(c) : 0);
  }
  const done = finished && finished.startsWith("finished=") ? finished.slice(9).split(",").map(Number) : [];
  return { size: 121, cells, toMove: Number(side || 1) - 1, finished: done };
}

export function parsePosition(game, options, text) {
  if (game === "reversi") return parseReversi(text, Number(options.size || 8));
  if (game === "gomoku") return parseGomoku(text, Number(options.size || 15));
  return parseChineseCheckers(text);
}

// ---- Names of points ----

export function reversiSquare(index, size) {
  return String.fromCharCode(97 + (index % size)) + (Math.floor(index / size) + 1);
}

export function gomokuPoint(index, size) {
  return String.fromCharCode(97 + (index % size)) + (size - Math.floor(index / size));
}

// The points of the longest run of stones through `point` (a Gomoku point name) in any of the
// four directions, when it is five or longer: the winning line once a game is won.
export function fiveThrough(position, point) {
  if (!position || !point) return [];
  const size = position.size;
  const column = point.charCodeAt(0) - 97;
  const row = size - Number(point.slice(1));
  const at = (x, y) => (x >= 0 && y >= 0 && x < size && y < size ? position.cells[y * size + x] : 0);
  const colour = at(column, row);
  if (!colour) return [];
  let best = [];
  for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
    const run = [[column, row]];
    for (const sign of [1, -1]) {
      for (let k = 1; at(column + sign * k * dx, row + sign * k * dy) === colour; k++) {
        run.push([column + sign * k * dx, row + sign * k * dy]);
      }
    }
    if (run.length > best.length) best = run;
  }
  if (best.length < 5) return [];
  return best.map(([x, y]) => gomokuPoint(y * size + x, size));
}

// ---- The Chinese Checkers star ----

const ROWS = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
// Holes in doubled coordinates: neighbours in a row are 2 apart, rows 1 apart.
export const HOLES = [];
(() => {
  ROWS.forEach((count, row) => {
    for (let i = 0; i < count; i++) HOLES.push({ x: 2 * i - (count - 1), y: row });
  });
})();
const HOLE_AT = new Map(HOLES.map((hole, index) => [hole.x + "," + hole.y, index]));
const DIRECTIONS = [[2, 0], [-2, 0], [1, 1], [-1, 1], [1, -1], [-1, -1]];

function holeAt(x, y) {
  const index = HOLE_AT.get(x + "," + y);
  return index === undefined ? -1 : index;
}

// Camps clockwise from the top, as hole numbers.
function range(a, b) {
  const out = [];
  for (let n = a; n <= b; n++) out.push(n);
  return out;
}
export const CAMPS = [
  range(1, 10),
  [...range(20, 23), ...range(33, 35), 45, 46, 56],
  [75, 85, 86, ...range(96, 98), ...range(108, 111)],
  range(112, 121),
  [66, 76, 77, ...range(87, 89), ...range(99, 102)],
  [...range(11, 14), ...range(24, 26), 36, 37, 47],
];
export const SEATING = { 2: [1, 4], 3: [1, 3, 5], 4: [1, 2, 4, 5], 6: [1, 2, 3, 4, 5, 6] };

// What each seat has on the board: discs (Reversi), stones (Gomoku), or pieces in the camp it
// is going to, out of ten (Chinese Checkers).
export function tally(game, position, players) {
  const out = new Array(players).fill(0);
  if (!position) return out;
  if (game === "chinese-checkers") {
    const seating = SEATING[players] || SEATING[2];
    seating.forEach((camp, seat) => {
      const goal = ((camp + 2) % 6) + 1;
      out[seat] = CAMPS[goal - 1].filter((hole) => position.cells[hole - 1] === seat + 1).length;
    });
    return out;
  }
  for (const cell of position.cells) if (cell) out[cell - 1]++;
  return out;
}

// The landing holes of one hop from `from` (0-based), standard or long.
function hops(from, occupied, long) {
  const out = [];
  const { x, y } = HOLES[from];
  for (const [dx, dy] of DIRECTIONS) {
    if (!long) {
      const over = holeAt(x + dx, y + dy);
      const land = holeAt(x + 2 * dx, y + 2 * dy);
      if (over >= 0 && land >= 0 && occupied[over] && !occupied[land]) out.push(land);
      continue;
    }
    // Long: the first piece k holes away, k-1 empty holes after it, landing k holes beyond.
    let k = 1;
    while (true) {
      const at = holeAt(x + k * dx, y + k * dy);
      if (at < 0) break;
      if (occupied[at]) break;
      k++;
    }
    const piece = holeAt(x + k * dx, y + k * dy);
    if (piece < 0) continue;
    let clear = true;
    for (let step = k + 1; step < 2 * k; step++) {
      const at = holeAt(x + step * dx, y + step * dy);
      if (at < 0 || occupied[at]) { clear = false; break; }
    }
    const land = holeAt(x + 2 * k * dx, y + 2 * k * dy);
    if (clear && land >= 0 && !occupied[land]) out.push(land);
  }
  return out;
}

// The holes a move `from-to` (hole numbers) passed through: a step, or a shortest chain of hops
// in the position before it. Hole numbers, from 1.
export function hopPath(before, move, long) {
  const match = /^(\d+)-(\d+)$/.exec(move || "");
  if (!match || !before) return [];
  const from = Number(match[1]) - 1;
  const to = Number(match[2]) - 1;
  const a = HOLES[from];
  const b = HOLES[to];
  if (!a || !b) return [];
  const adjacent = DIRECTIONS.some(([dx, dy]) => a.x + dx === b.x && a.y + dy === b.y);
  if (adjacent) return [from + 1, to + 1];
  const occupied = before.cells.map((cell) => cell !== 0);
  occupied[from] = false;
  const previous = new Map([[from, -1]]);
  const queue = [from];
  while (queue.length) {
    const hole = queue.shift();
    if (hole === to) break;
    for (const next of hops(hole, occupied, long)) {
      if (!previous.has(next)) {
        previous.set(next, hole);
        queue.push(next);
      }
    }
  }
  if (!previous.has(to)) return [from + 1, to + 1];
  const path = [];
  for (let hole = to; hole !== -1; hole = previous.get(hole)) path.unshift(hole + 1);
  return path;
}

// ---- Drawing ----

export class BoardView {
  constructor(container, onMove) {
    this.container = container;
    this.onMove = onMove;
    this.model = null;
    this.cursor = null;
    this.selected = null;
    container.addEventListener("keydown", (event) => this.key(event));
  }

  render(model) {
    const changed = !this.model || this.model.game !== model.game || this.model.position.size !== model.position.size;
    this.model = model;
    if (changed) {
      this.cursor = null;
      this.selected = null;
    }
    if (this.selected !== null && !this.targetsOf(this.selected).length) this.selected = null;
    this.container.replaceChildren();
    if (model.game === "reversi") this.drawReversi();
    else if (model.game === "gomoku") this.drawGomoku();
    else this.drawStar();
  }

  legal(move) {
    return this.model.legal.includes(move);
  }

  // The targets of the piece on `hole` (1-based) among the legal moves.
  targetsOf(hole) {
    if (!this.model || this.model.game !== "chinese-checkers") return [];
    const prefix = hole + "-";
    return this.model.legal.filter((move) => move.startsWith(prefix)).map((move) => Number(move.slice(prefix.length)));
  }

  svg(viewBox, label) {
    const root = element("svg", { viewBox, role: "img", "aria-label": label, class: "board-svg " + this.model.game });
    this.container.appendChild(root);
    return root;
  }

  choose(name) {
    if (this.model.game === "chinese-checkers") {
      const hole = Number(name);
      if (this.selected !== null && this.targetsOf(this.selected).includes(hole)) {
        const move = this.selected + "-" + hole;
        this.selected = null;
        this.onMove(move);
        return;
      }
      this.selected = this.targetsOf(hole).length ? hole : null;
      this.render(this.model);
      return;
    }
    if (this.legal(name)) this.onMove(name);
  }

  drawReversi() {
    const { size, cells } = this.model.position;
    const root = this.svg(`-0.7 -0.7 ${size + 1.4} ${size + 1.4}`, `Reversi ${size}x${size}`);
    element("rect", { x: -0.05, y: -0.05, width: size + 0.1, height: size + 0.1, class: "reversi-frame" }, root);
    const before = this.model.previous;
    const last = this.model.lastMove;
    for (let index = 0; index < size * size; index++) {
      const x = index % size;
      const y = Math.floor(index / size);
      const name = reversiSquare(index, size);
      const square = element("rect", { x, y, width: 1, height: 1, class: "square", "data-point": name }, root);
      square.addEventListener("click", () => this.choose(name));
      if (this.cursor === index) element("rect", { x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, class: "cursor" }, root);
      const cell = cells[index];
      if (cell) {
        const flipped = before && before.cells[index] && before.cells[index] !== cell;
        const disc = element("circle", {
          cx: x + 0.5, cy: y + 0.5, r: 0.41,
          class: "disc " + (cell === 1 ? "black" : "white") + (flipped ? " flipped" : ""),
          "data-disc": name,
        }, root);
        disc.addEventListener("click", () => this.choose(name));
        if (name === last) element("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.09, class: "last-mark" }, root);
      } else if (this.legal(name)) {
        const mark = element("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.13, class: "legal", "data-legal": name }, root);
        mark.addEventListener("click", () => this.choose(name));
      }
      if (name === this.model.hint) element("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.3, class: "hint-mark" }, root);
    }
    for (let i = 0; i < size; i++) {
      element("text", { x: i + 0.5, y: -0.25, class: "coordinate" }, root).textContent = String.fromCharCode(97 + i);
      element("text", { x: -0.35, y: i + 0.62, class: "coordinate" }, root).textContent = String(i + 1);
    }
  }

  drawGomoku() {
    const { size, cells } = this.model.position;
    const root = this.svg(`-1.2 -1.2 ${size + 1.4} ${size + 1.4}`, `Gomoku ${size}x${size}`);
    element("rect", { x: -0.7, y: -0.7, width: size + 0.4, height: size + 0.4, class: "gomoku-wood" }, root);
    for (let i = 0; i < size; i++) {
      element("line", { x1: 0, y1: i, x2: size - 1, y2: i, class: "grid" }, root);
      element("line", { x1: i, y1: 0, x2: i, y2: size - 1, class: "grid" }, root);
      element("text", { x: i, y: size - 0.2, class: "coordinate" }, root).textContent = String.fromCharCode(97 + i);
      element("text", { x: -0.85, y: i + 0.15, class: "coordinate" }, root).textContent = String(size - i);
    }
    const forbidden = new Set(this.model.forbidden || []);
    const last = this.model.lastMove;
    for (let index = 0; index < size * size; index++) {
      const x = index % size;
      const y = Math.floor(index / size);
      const name = gomokuPoint(index, size);
      const cell = cells[index];
      const target = element("circle", { cx: x, cy: y, r: 0.48, class: "point", "data-point": name }, root);
      target.addEventListener("click", () => this.choose(name));
      if (cell) {
        element("circle", { cx: x, cy: y, r: 0.44, class: "stone " + (cell === 1 ? "black" : "white"), "data-stone": name }, root);
        if (name === last) element("circle", { cx: x, cy: y, r: 0.12, class: "last-mark" }, root);
      } else if (forbidden.has(name)) {
        const cross = element("g", { class: "forbidden", "data-forbidden": name }, root);
        element("line", { x1: x - 0.22, y1: y - 0.22, x2: x + 0.22, y2: y + 0.22 }, cross);
        element("line", { x1: x - 0.22, y1: y + 0.22, x2: x + 0.22, y2: y - 0.22 }, cross);
      } else if (this.legal(name)) {
        const mark = element("circle", { cx: x, cy: y, r: 0.14, class: "legal gomoku-legal", "data-legal": name }, root);
        mark.addEventListener("click", () => this.choose(name));
      }
      if (this.cursor === index) element("rect", { x: x - 0.45, y: y - 0.45, width: 0.9, height: 0.9, class: "cursor" }, root);
      if (name === this.model.hint) element("circle", { cx: x, cy: y, r: 0.3, class: "hint-mark" }, root);
    }
    // The winning five: a bar through its stones, and a ring on each.
    const five = (this.model.five || []).map((name) => {
      const index = cells.findIndex((_, i) => gomokuPoint(i, size) === name);
      return { name, x: index % size, y: Math.floor(index / size) };
    });
    if (five.length >= 5) {
      five.sort((a, b) => a.x - b.x || a.y - b.y);
      const [first, last] = [five[0], five[five.length - 1]];
      element("line", { x1: first.x, y1: first.y, x2: last.x, y2: last.y, class: "five-line" }, root);
      for (const p of five) element("circle", { cx: p.x, cy: p.y, r: 0.47, class: "five-mark", "data-five": p.name }, root);
    }
  }

  drawStar() {
    const { cells } = this.model.position;
    const players = Number(this.model.options.players || 2);
    const step = Math.sqrt(3) / 2;
    const root = this.svg(`-13.6 -1.2 27.2 ${16 * step * 2 + 2.4}`, `Chinese Checkers, ${players} players`);
    const point = (hole) => ({ x: HOLES[hole].x, y: HOLES[hole].y * step * 2 });
    // Each seat's camps in its colour: where it starts, and faintly where it goes.
    const seating = SEATING[players] || SEATING[2];
    seating.forEach((camp, seat) => {
      const goal = ((camp + 2) % 6) + 1;
      for (const [which, kind] of [[camp, "camp"], [goal, "goal"]]) {
        for (const hole of CAMPS[which - 1]) {
          const p = point(hole - 1);
          element("circle", { cx: p.x, cy: p.y, r: 1.05, class: kind, fill: PLAYER_COLOURS[seat] }, root);
        }
      }
    });
    // The last move's path.
    const path = this.model.game === "chinese-checkers" ? hopPath(this.model.previous, this.model.lastMove, this.model.options.jumps === "long") : [];
    const targets = this.selected !== null ? this.targetsOf(this.selected) : [];
    const movable = new Set(this.model.legal.map((move) => Number(move.split("-")[0])));
    for (let hole = 0; hole < 121; hole++) {
      const p = point(hole);
      const number = hole + 1;
      const cell = cells[hole];
      const node = element("circle", {
        cx: p.x, cy: p.y, r: cell ? 0.78 : 0.32,
        class: cell ? "piece" : "hole",
        "data-hole": number,
        fill: cell ? PLAYER_COLOURS[cell - 1] : "",
      }, root);
      if (cell) node.setAttribute("data-player", cell);
      if (movable.has(number)) node.classList.add("movable");
      if (this.selected === number) node.classList.add("selected");
      node.addEventListener("click", () => this.choose(String(number)));
      if (targets.includes(number)) {
        const mark = element("circle", { cx: p.x, cy: p.y, r: 0.5, class: "legal target", "data-target": number }, root);
        mark.addEventListener("click", () => this.choose(String(number)));
      }
      if (this.cursor === hole) element("circle", { cx: p.x, cy: p.y, r: 0.95, class: "cursor" }, root);
    }
    if (path.length > 1) {
      const points = path.map((hole) => point(hole - 1)).map((p) => `${p.x},${p.y}`).join(" ");
      element("polyline", { points, class: "hop-path", "data-path": path.join("-") }, root);
      const end = point(path[path.length - 1] - 1);
      element("circle", { cx: end.x, cy: end.y, r: 0.3, class: "last-mark" }, root);
    }
    if (this.model.hint) {
      const [from, to] = this.model.hint.split("-").map(Number);
      if (from && to) {
        const a = point(from - 1);
        const b = point(to - 1);
        element("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "hint-line" }, root);
      }
    }
  }

  // ---- Keyboard ----

  pointCount() {
    const size = this.model.position.size;
    return this.model.game === "chinese-checkers" ? 121 : size * size;
  }

  nameOf(index) {
    const size = this.model.position.size;
    if (this.model.game === "reversi") return reversiSquare(index, size);
    if (this.model.game === "gomoku") return gomokuPoint(index, size);
    return String(index + 1);
  }

  moveCursor(dx, dy) {
    if (this.cursor === null) {
      const size = this.model.position.size;
      this.cursor = this.model.game === "chinese-checkers" ? 60 : Math.floor(size / 2) * size + Math.floor(size / 2);
      return;
    }
    if (this.model.game === "chinese-checkers") {
      const { x, y } = HOLES[this.cursor];
      if (dy === 0) {
        const next = holeAt(x + 2 * dx, y);
        if (next >= 0) this.cursor = next;
        return;
      }
      // The nearest hole in the next row that has any.
      for (let row = y + dy; row >= 0 && row < ROWS.length; row += dy) {
        let best = -1;
        let distance = Infinity;
        HOLES.forEach((hole, index) => {
          if (hole.y === row && Math.abs(hole.x - x) < distance) {
            distance = Math.abs(hole.x - x);
            best = index;
          }
        });
        if (best >= 0) {
          this.cursor = best;
          return;
        }
      }
      return;
    }
    const size = this.model.position.size;
    const x = Math.min(size - 1, Math.max(0, (this.cursor % size) + dx));
    const y = Math.min(size - 1, Math.max(0, Math.floor(this.cursor / size) + dy));
    this.cursor = y * size + x;
  }

  key(event) {
    if (!this.model) return;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[event.key]) {
      event.preventDefault();
      this.moveCursor(...moves[event.key]);
      this.render(this.model);
      this.announce();
      return;
    }
    if ((event.key === "Enter" || event.key === " ") && this.cursor !== null) {
      event.preventDefault();
      this.choose(this.nameOf(this.cursor));
      return;
    }
    if (event.key === "Escape") {
      this.selected = null;
      this.render(this.model);
    }
  }

  announce() {
    const name = this.nameOf(this.cursor);
    this.container.setAttribute("aria-label", `Board, cursor on ${name}${this.legal(name) ? ", legal" : ""}`);
  }
}
