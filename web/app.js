// The web board: play Tabula over an engine session (our protocol over /ws/engine), or play and
// watch refereed rooms (JSON messages over /ws/room).

import { BoardView, parsePosition, PLAYER_COLOURS, fiveThrough, tally } from "./boards.js";

const $ = (id) => document.getElementById(id);

// ---- The server's token, when it asks for one: from the link (#token=...) or asked once ----

function fragment() {
  return new URLSearchParams(location.hash.slice(1));
}

function token() {
  const given = fragment().get("token");
  if (given) sessionStorage.setItem("tabula-token", given);
  return sessionStorage.getItem("tabula-token");
}

function socketUrl(path) {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
}

// ---- An engine session: our protocol, one command at a time, replies matched by id ----

class Engine {
  constructor(onInfo, onClose) {
    this.onInfo = onInfo;
    this.onClose = onClose;
    this.pending = new Map();
    this.next = 1;
    this.buffer = "";
    this.reply = null;
    this.open = new Promise((resolve, reject) => {
      this.socket = new WebSocket(socketUrl("/ws/engine"));
      this.socket.onopen = () => {
        const secret = token();
        if (secret) this.socket.send("auth " + secret);
        resolve();
      };
      this.socket.onerror = () => reject(new Error("cannot reach the server"));
    });
    this.socket.onmessage = (event) => this.receive(String(event.data));
    this.socket.onclose = () => {
      for (const resolve of this.pending.values()) resolve({ ok: false, text: "the connection closed" });
      this.pending.clear();
      this.onClose();
    };
    this.keepAlive = setInterval(() => this.socket.readyState === 1 && this.command("name"), 60000);
  }

  receive(data) {
    this.buffer += data;
    let end;
    while ((end = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, end).replace(/\r$/, "");
      this.buffer = this.buffer.slice(end + 1);
      if (this.reply) {
        if (line === "") {
          const { id, ok, lines } = this.reply;
          this.reply = null;
          const resolve = this.pending.get(id);
          this.pending.delete(id);
          if (resolve) resolve({ ok, text: lines.join("\n") });
        } else {
          this.reply.lines.push(line);
        }
        continue;
      }
      const match = /^([=?])(\d*) ?(.*)$/.exec(line);
      if (match) {
        this.reply = { ok: match[1] === "=", id: Number(match[2] || 0), lines: match[3] ? [match[3]] : [] };
      } else if (line.startsWith("info ")) {
        this.onInfo(line);
      }
    }
  }

  async command(text) {
    await this.open;
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.send(`${id} ${text}`);
    });
  }

  async must(text) {
    const answer = await this.command(text);
    if (!answer.ok) throw new Error(answer.text);
    return answer.text;
  }

  close() {
    clearInterval(this.keepAlive);
    this.socket.close();
  }
}

// ---- A room connection: JSON messages ----

class RoomLink {
  constructor(onMessage, onClose) {
    this.onMessage = onMessage;
    this.open = new Promise((resolve, reject) => {
      this.socket = new WebSocket(socketUrl("/ws/room"));
      this.socket.onopen = () => {
        const secret = token();
        if (secret) this.socket.send("auth " + secret);
        resolve();
      };
      this.socket.onerror = () => reject(new Error("cannot reach the server"));
    });
    this.socket.onmessage = (event) => {
      for (const line of String(event.data).split("\n")) {
        if (!line.trim() || line === "ok") continue;
        try {
          this.onMessage(JSON.parse(line));
        } catch (error) {
          console.warn("unreadable message", line);
        }
      }
    };
    this.socket.onclose = onClose;
    this.keepAlive = setInterval(() => this.send({ type: "ping" }), 60000);
  }

  async send(message) {
    await this.open;
    if (this.socket.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  close() {
    clearInterval(this.keepAlive);
    this.socket.close();
  }
}

// ---- Words: levels, players, scores and results ----

const LEVEL_NAMES = ["Rookie", "Novice", "Beginner", "Player", "Skilled", "Master", "Grandmaster", "Sage"];

function levelWords(level) {
  const name = LEVEL_NAMES[Number(level) - 1];
  return name ? `level ${level} (${name})` : `level ${level}`;
}

function tabulaName(level) {
  return `Tabula, ${levelWords(level)}`;
}

// "You win", "alice wins".
function wins(name) {
  return name === "You" ? "You win" : `${name} wins`;
}

function ordinal(place) {
  const suffix = place % 10 === 1 && place !== 11 ? "st" : place % 10 === 2 && place !== 12 ? "nd" : place % 10 === 3 && place !== 13 ? "rd" : "th";
  return `${place}${suffix}`;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

// Each seat's place from a result text: final_score's (`B+10`, `W+`, `0`, `2`, `1:3 2:1 3:2`)
// or the SGF-like text of a game won by default (`W+T`, `1+R`).
function placesFrom(text, players) {
  const pairs = [...String(text).matchAll(/(\d+):(\d+)/g)];
  if (pairs.length) {
    const places = new Array(players).fill(players);
    for (const [, seat, place] of pairs) places[Number(seat) - 1] = Number(place);
    return places;
  }
  const letter = /^([BW])\+/i.exec(text);
  const number = /^(\d+)(\+.*)?$/.exec(text);
  let winner = null;
  if (letter) winner = letter[1].toUpperCase() === "B" ? 0 : 1;
  else if (number && Number(number[1]) > 0) winner = Number(number[1]) - 1;
  const places = new Array(players).fill(winner === null ? 1 : 2);
  if (winner !== null && winner < players) places[winner] = 1;
  return places;
}

// A game's end in words: "Tabula wins 34-30", "alice wins: five in a row", "1st: bob · 2nd: ...".
function endingWords({ game, options, places, reason, names, counts }) {
  const players = names.length;
  const first = places.filter((place) => place === 1).length;
  if (players === 2) {
    if (first === 2) {
      if (game === "reversi") return `Draw, ${counts[0]}-${counts[1]}`;
      if (game === "gomoku") return "Draw: the board is full";
      return "Draw";
    }
    const winner = places[0] === 1 ? 0 : 1;
    const loser = 1 - winner;
    const name = names[winner];
    if (reason === "time") return `${wins(name)} on time: ${names[loser]} ran out of time`;
    if (reason === "resign") return `${wins(name)}: ${names[loser]} resigned`;
    if (reason === "forfeit") return `${wins(name)}: ${names[loser]} left and forfeited`;
    if (game === "reversi") return `${wins(name)} ${counts[winner]}-${counts[loser]}`;
    if (game === "gomoku") return `${wins(name)}: ${options.rule === "standard" ? "exactly five" : "five"} in a row`;
    return `${wins(name)}: every piece home`;
  }
  const order = names.map((name, seat) => ({ name, place: places[seat] })).sort((a, b) => a.place - b.place);
  return order.map(({ name, place }) => `${ordinal(place)}: ${name}`).join(" · ");
}

// A search score in words. `owner` is whose score it is ("Tabula" or "you"), `other` the side
// against it ("you", "Tabula" or "the others").
function scoreWords(game, score, owner, other) {
  const text = String(score).replace(/^<=/, "");
  const proven = /^(win|loss)([+-]\d+)?@(\d+)$/.exec(text);
  const leads = (who) => (who === "you" ? "you lead" : who === "Tabula" ? "it leads" : `${who} lead`);
  if (proven) {
    const plies = Number(proven[3]);
    const winner = proven[1] === "win" ? owner : other;
    const moves = Math.max(1, proven[1] === "win" ? Math.ceil(plies / 2) : Math.round(plies / 2));
    const margin = proven[2] ? ` by ${plural(Math.abs(Number(proven[2])), "disc")}` : "";
    const forWhom = winner === "Tabula" ? "" : ` for ${winner}`;
    return `Tabula sees a forced win${forWhom}${margin} in ${plural(moves, "move")}`;
  }
  const value = Number(text);
  if (!Number.isFinite(value)) return `Tabula's score: ${score}`;
  const leader = value > 0 ? owner : other;
  if (game === "reversi") {
    const discs = Math.round(Math.abs(value));
    if (discs === 0) return "Tabula thinks the game is even";
    return `Tabula thinks ${leads(leader)} by about ${plural(discs, "disc")}`;
  }
  if (game === "gomoku") {
    const size = Math.abs(value);
    if (size >= 9000) return `Tabula sees a five for ${leader === "Tabula" ? "itself" : leader} next move`;
    if (size < 40) return "Tabula thinks the game is even";
    const how = size < 250 ? "slightly" : size < 1200 ? "clearly" : "far";
    return `Tabula thinks ${leader === "you" ? "you are" : leader === "Tabula" ? "it is" : leader + " are"} ${how} ahead`;
  }
  const rows = Math.abs(value);
  if (rows < 0.5) return "Tabula thinks the race is even";
  return `Tabula thinks ${leads(leader)} by about ${plural(Math.round(rows), "row")}`;
}

// ---- The page's state ----

const page = {
  mode: "play",
  engine: null,
  busy: false,
  searching: null,
  task: null, // the running task of `run`, awaited by a New game that interrupts it
  generation: 0, // counts the games: a turn loop of an abandoned game ends at its next step
  interrupting: false, // a New game is waiting for the task it stopped
  game: "reversi",
  options: { size: "8" },
  position: null,
  positionText: "",
  previous: null,
  legal: [],
  forbidden: [],
  moves: [],
  players: 2,
  human: 0,
  level: 2,
  over: false,
  result: "",
  hint: null,
  evaluationFor: -1, // the number of moves the evaluation shown is about
  spent: [], // play mode: each seat's thinking time so far, in milliseconds
  turnSince: Date.now(), // when the seat to move began to think
  room: null, // { id, seat, view }
  roomLink: null,
  clockTimer: null,
};

const board = new BoardView($("board"), (move) => (page.mode === "play" ? humanMove(move) : roomMove(move)));

function status(text) {
  $("status").textContent = text;
}

function chosenGame() {
  const game = $("game").value;
  if (game === "reversi") return { game, options: { size: $("reversi-size").value } };
  if (game === "gomoku") return { game, options: { size: $("gomoku-size").value, rule: $("gomoku-rule").value } };
  return { game, options: { players: $("cc-players").value, jumps: $("cc-jumps").value } };
}

function optionWords(options) {
  return Object.entries(options).map(([key, value]) => `${key}=${value}`).join(" ");
}

function seatName(game, seat, players) {
  if (players === 2 && game !== "chinese-checkers") return seat === 0 ? "black" : "white";
  return String(seat + 1);
}

const CC_COLOUR_NAMES = ["red", "blue", "green", "yellow", "purple", "brown"];

function seatColour(game, seat, players) {
  if (game === "chinese-checkers") return { swatch: PLAYER_COLOURS[seat], word: CC_COLOUR_NAMES[seat] };
  return seat === 0 ? { swatch: "#111", word: "black" } : { swatch: "#f5f5f5", word: "white" };
}

function fillSelects() {
  const gomoku = $("gomoku-size");
  for (let size = 5; size <= 22; size++) {
    const option = document.createElement("option");
    option.textContent = String(size);
    gomoku.appendChild(option);
  }
  gomoku.value = "15";
  const level = $("level");
  LEVEL_NAMES.forEach((name, index) => {
    const option = document.createElement("option");
    option.value = String(index + 1);
    option.textContent = `${index + 1} · ${name}`;
    level.appendChild(option);
  });
  level.value = "2";
}

function showOptions() {
  const game = $("game").value;
  for (const label of document.querySelectorAll(".option")) {
    label.hidden = !label.dataset.games.split(" ").includes(game);
  }
  const { options } = chosenGame();
  const players = game === "chinese-checkers" ? Number(options.players) : 2;
  const seat = $("human-seat");
  const previous = seat.value;
  seat.replaceChildren();
  for (let index = 0; index < players; index++) {
    const option = document.createElement("option");
    option.value = String(index);
    const colour = seatColour(game, index, players).word;
    option.textContent = players === 2 && game !== "chinese-checkers" ? (index === 0 ? "Black (first)" : "White (second)") : `Player ${index + 1} (${colour})`;
    seat.appendChild(option);
  }
  if (previous && Number(previous) < players) seat.value = previous;
  // Room seats: one selector per seat, the choice written out below them.
  const specs = $("seat-specs");
  const before = [...specs.querySelectorAll(".seat-spec")].map((select) => select.value);
  specs.replaceChildren();
  for (let index = 0; index < players; index++) {
    const label = document.createElement("label");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = seatColour(game, index, players).swatch;
    label.append(swatch, ` Seat ${index + 1} (${seatColour(game, index, players).word}) `);
    const select = document.createElement("select");
    select.className = "seat-spec";
    select.dataset.seat = String(index);
    const open = document.createElement("option");
    open.value = "open";
    open.textContent = index === 0 ? "you" : "open: a person or an engine joins";
    select.appendChild(open);
    for (let level = 1; level <= 8; level++) {
      const option = document.createElement("option");
      option.value = String(level);
      option.textContent = tabulaName(level);
      select.appendChild(option);
    }
    // Tabula fills the seats of a many-player game unless told otherwise; the summary says so.
    select.value = before.length === players ? before[index] : index > 0 && players > 2 ? "2" : "open";
    select.addEventListener("change", showSeatSummary);
    label.appendChild(select);
    specs.appendChild(label);
  }
  showSeatSummary();
}

function showSeatSummary() {
  const choices = [...document.querySelectorAll(".seat-spec")].map((select, index) =>
    index === 0 && select.value === "open" ? "you" : select.value === "open" ? "open" : tabulaName(select.value));
  const open = choices.filter((choice) => choice === "open").length;
  $("seat-summary").textContent = `Seats: ${choices.map((choice, index) => `${index + 1} ${choice}`).join("; ")}.` +
    (open ? ` The link lets ${plural(open, "more player")} join.` : " Nobody else needs to join.");
}

// ---- The player bar above the board ----

// Who sits where: [{ name, tabula, level, you, away, out }].
function seatPeople() {
  if (page.mode === "play") {
    return Array.from({ length: page.players }, (_, seat) =>
      seat === page.human ? { name: "You", you: true } : { name: tabulaName(page.level), tabula: true, level: page.level });
  }
  const view = page.room && page.room.view;
  if (!view) return [];
  return view.seats.map((seat) => {
    const tabula = seat.kind === "tabula";
    const person = {
      name: tabula ? tabulaName(seat.level) : seat.name || "open seat",
      tabula,
      level: seat.level,
      you: seat.seat === page.room.seat,
      away: seat.kind === "remote" && !seat.connected,
      standIn: seat.stand_in,
      out: seat.out,
    };
    if (person.you) person.name = `${person.name} (you)`;
    return person;
  });
}

// The name used in sentences: "You" for the viewer.
function callName(person) {
  return person.you ? "You" : person.name;
}

function clockText(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

// Each seat's clock: time left when the room is timed, otherwise thinking time so far.
function clocks() {
  const now = Date.now();
  if (page.mode === "play") {
    return page.spent.map((ms, seat) => ({
      ms: ms + (!page.over && page.position && page.position.toMove === seat ? now - page.turnSince : 0),
      left: false,
    }));
  }
  const view = page.room && page.room.view;
  if (!view) return [];
  if (view.clock.left_ms.length) {
    return view.clock.left_ms.map((ms, seat) => ({
      ms: ms - (view.status === "playing" && view.clock.running === seat ? now - page.turnSince : 0),
      left: true,
    }));
  }
  const used = view.seats.map(() => 0);
  for (const record of view.moves) used[record.seat] += record.ms;
  return used.map((ms, seat) => ({
    ms: ms + (view.status === "playing" && view.to_move === seat ? now - page.turnSince : 0),
    left: false,
  }));
}

function toMoveSeat() {
  if (page.over || !page.position) return null;
  if (page.mode === "play") return page.position.toMove;
  const view = page.room && page.room.view;
  return view && view.status === "playing" ? view.to_move : null;
}

function places() {
  if (!page.over) return null;
  if (page.mode === "play") return placesFrom(page.result, page.players);
  const view = page.room && page.room.view;
  return view && view.result ? view.result.places : null;
}

function showPlayers() {
  const bar = $("players");
  const people = seatPeople();
  const counts = tally(page.game, page.position, people.length);
  const times = clocks();
  const moving = toMoveSeat();
  const ranks = places();
  bar.replaceChildren();
  bar.dataset.count = String(people.length);
  people.forEach((person, seat) => {
    const chip = document.createElement("div");
    chip.className = "player";
    chip.dataset.seat = String(seat);
    if (seat === moving) chip.classList.add("to-move");
    if (person.you) chip.classList.add("you");
    const colour = seatColour(page.game, seat, people.length);
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = colour.swatch;
    swatch.title = colour.word;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = person.name;
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = page.game === "reversi" ? plural(counts[seat], "disc")
      : page.game === "gomoku" ? plural(counts[seat], "stone") : `${counts[seat]}/10 home`;
    const clock = document.createElement("span");
    clock.className = "clock";
    const time = times[seat];
    clock.textContent = time ? clockText(time.ms) : "";
    clock.title = time && time.left ? "time left" : "thinking time so far";
    if (time && time.left && time.ms < 10000 && seat === moving) clock.classList.add("low");
    const turn = document.createElement("span");
    turn.className = "turn";
    const thinking = person.tabula || person.standIn;
    if (ranks) turn.textContent = ranks.every((place) => place === 1) ? "draw" : people.length === 2 ? (ranks[seat] === 1 ? "wins" : "") : ordinal(ranks[seat]);
    else if (seat === moving) turn.textContent = person.you ? "your move" : thinking ? "Tabula is thinking…" : "to move";
    else if (person.out) turn.textContent = `out (${person.out})`;
    else if (person.away) turn.textContent = "away";
    if (ranks && ranks[seat] === 1) chip.classList.add("winner");
    const top = document.createElement("span");
    top.className = "who";
    top.append(swatch, name);
    const bottom = document.createElement("span");
    bottom.className = "facts";
    bottom.append(count, clock, turn);
    chip.append(top, bottom);
    bar.appendChild(chip);
  });
}

// The board as large as the window allows below the player bar: its width from the height left.
function fitBoard() {
  const area = $("board-area");
  const aspect = page.game === "chinese-checkers" ? 27.2 / 30.11 : 1;
  const main = document.querySelector("main");
  const style = getComputedStyle(main);
  const across = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  // The column is at least 560 pixels wide where the window allows (room for six players'
  // names); the board is centred in it.
  for (let pass = 0; pass < 2; pass++) {
    const top = $("board").getBoundingClientRect().top + window.scrollY;
    const height = window.innerHeight - top - 12;
    const width = Math.max(240, Math.min(760, across, height * aspect));
    area.style.width = `${Math.floor(Math.max(width, Math.min(across, 560)))}px`;
    $("board").style.width = `${Math.floor(width)}px`;
  }
}

function endWords() {
  const people = seatPeople();
  const ranks = places();
  if (!ranks) return "";
  const view = page.room && page.room.view;
  return endingWords({
    game: page.game,
    options: page.options,
    places: ranks,
    reason: page.mode === "play" ? "normal" : view.result.reason,
    names: people.map(callName),
    counts: tally(page.game, page.position, people.length),
  });
}

function showEnd() {
  const over = page.over && !!page.position;
  $("end-actions").hidden = !over;
  $("rematch").hidden = page.mode === "rooms" && !(page.room && page.room.seat !== null && page.room.seat !== undefined);
  document.body.dataset.result = over ? endWords() : "";
}

function draw() {
  if (!page.position) return;
  const mine = page.mode === "play"
    ? !page.over && !page.busy && page.position.toMove === page.human
    : page.room && page.room.view && page.room.view.to_move !== null && page.room.view.to_move === page.room.seat;
  const lastMove = page.moves.length ? page.moves[page.moves.length - 1] : null;
  board.render({
    game: page.game,
    options: page.options,
    position: page.position,
    previous: page.previous,
    legal: mine ? page.legal : [],
    forbidden: page.forbidden,
    lastMove,
    hint: page.hint,
    five: page.over && page.game === "gomoku" ? fiveThrough(page.position, lastMove) : [],
  });
  const list = $("move-list");
  list.replaceChildren();
  page.moves.forEach((move) => {
    const item = document.createElement("li");
    item.textContent = move;
    list.appendChild(item);
  });
  list.scrollTop = list.scrollHeight;
  $("record-text").value = recordText();
  document.body.dataset.moves = String(page.moves.length);
  document.body.dataset.over = page.over ? "yes" : "no";
  document.body.dataset.game = page.game;
  showPlayers();
  showEnd();
  fitBoard();
}

function recordText() {
  return `${page.game} ${optionWords(page.options)}\n${page.moves.join(" ")}${page.result ? "\nresult " + page.result : ""}`;
}

// ---- Playing Tabula ----

function clearAnalysis() {
  $("evaluation").textContent = "–";
  $("pv").textContent = "–";
  $("hint-text").textContent = "–";
  page.hint = null;
}

// Search information while Tabula thinks about its own move (hints report on their own line):
// in words, from the player's side.
function engineInfo(line) {
  if (page.searching !== "move") return;
  const score = /score (\S+)/.exec(line);
  const pv = / pv (.*)$/.exec(line);
  const other = page.players === 2 ? "you" : "the others";
  if (score) $("evaluation").textContent = scoreWords(page.game, score[1], "Tabula", other);
  if (pv) $("pv").textContent = pv[1];
}

async function connectEngine() {
  if (page.engine) return page.engine;
  page.engine = new Engine(engineInfo, () => {
    page.engine = null;
    if (page.mode === "play") status("Disconnected from the server. New game reconnects.");
  });
  await page.engine.open;
  return page.engine;
}

async function refresh() {
  const engine = page.engine;
  const text = await engine.must("position");
  const moves = await engine.must("moves");
  const before = page.moves.length;
  page.moves = moves ? moves.split(/\s+/) : [];
  if (text !== page.positionText) {
    // A hint or an evaluation is about the position it was made for only.
    page.hint = null;
    $("hint-text").textContent = "–";
    if (page.moves.length !== page.evaluationFor) {
      $("evaluation").textContent = "–";
      $("pv").textContent = "–";
    }
    // The clock of the seat that moved.
    if (page.position && page.moves.length > before) {
      const mover = page.position.toMove;
      page.spent[mover] = (page.spent[mover] || 0) + (Date.now() - page.turnSince);
    }
    page.turnSince = Date.now();
  }
  page.positionText = text;
  page.position = parsePosition(page.game, page.options, text);
  const legal = await engine.must("legal_moves");
  page.legal = legal ? legal.split(/\s+/) : [];
  page.forbidden = page.game === "gomoku" ? (await engine.must("forbidden_moves")).split(/\s+/).filter(Boolean) : [];
  page.over = page.legal.length === 0;
  page.result = page.over ? await engine.must("final_score") : "";
  $("position-text").value = text;
}

function describeTurn() {
  if (page.over) {
    status(`${endWords()}.`);
    return;
  }
  const toMove = page.position.toMove;
  const who = seatName(page.game, toMove, page.players);
  status(toMove === page.human ? `Your move (${who}).` : `${tabulaName(page.level)} (${who}) is thinking…`);
}

async function engineTurns() {
  // Tabula plays every seat but the human's; forced passes are played for the human too.
  const generation = page.generation;
  while (!page.over && generation === page.generation) {
    if (page.position.toMove === page.human) {
      if (page.legal.length === 1 && page.legal[0] === "pass") {
        status("You have no move: pass.");
        await page.engine.must("play pass");
        page.previous = page.position;
        await refresh();
        continue;
      }
      break;
    }
    describeTurn();
    page.busy = true;
    draw();
    const before = page.position;
    page.searching = "move";
    page.evaluationFor = page.moves.length + 1;
    await page.engine.must("genmove");
    page.searching = null;
    if (generation !== page.generation) break;
    page.previous = before;
    await refresh();
    page.busy = false;
  }
  page.busy = false;
  draw();
  describeTurn();
}

async function run(task) {
  if (page.busy) return;
  const running = (async () => {
    try {
      await task();
    } catch (error) {
      page.busy = false;
      status(`Error: ${error.message}`);
      draw();
    }
  })();
  page.task = running;
  await running;
  if (page.task === running) page.task = null;
}

// New game while Tabula thinks (its move or a hint): the running search is stopped, its answer
// is dropped, and the new game starts once the old task has finished.
async function interrupt() {
  if (!page.busy || !page.engine) return;
  page.generation++;
  status("Stopping Tabula…");
  page.engine.command("stop");
  if (page.task) await page.task;
}

async function newGame() {
  if (page.interrupting) return;
  page.interrupting = true;
  try {
    await interrupt();
  } finally {
    page.interrupting = false;
  }
  await run(async () => {
    const { game, options } = chosenGame();
    const engine = await connectEngine();
    page.game = game;
    page.options = options;
    page.players = game === "chinese-checkers" ? Number(options.players) : 2;
    page.human = Number($("human-seat").value || 0);
    page.level = Number($("level").value);
    page.previous = null;
    page.positionText = "";
    page.position = null;
    page.moves = [];
    page.evaluationFor = -1;
    page.spent = new Array(page.players).fill(0);
    page.turnSince = Date.now();
    clearAnalysis();
    await engine.must(`set_game ${game} ${optionWords(options)}`);
    await engine.must(`set_option level ${page.level}`);
    await engine.must("set_option info stdout");
    await refresh();
    draw();
    await engineTurns();
  });
}

// The same game again with the seats turned: black and white swap.
async function rematch() {
  if (page.mode === "rooms") {
    if (page.roomLink) await page.roomLink.send({ type: "rematch" });
    return;
  }
  showGame(page.game, page.options);
  showOptions();
  $("human-seat").value = String((page.human + 1) % page.players);
  $("level").value = String(page.level);
  await newGame();
}

async function again() {
  if (page.mode === "rooms") {
    $("create-room").scrollIntoView({ block: "center" });
    $("create-room").focus();
    status("Choose the game and the seats, then Create and join.");
    return;
  }
  await newGame();
}

async function humanMove(move) {
  await run(async () => {
    if (page.busy || page.over) return;
    const before = page.position;
    const answer = await page.engine.command(`play ${move}`);
    if (!answer.ok) {
      status(answer.text);
      return;
    }
    page.previous = before;
    await refresh();
    draw();
    await engineTurns();
  });
}

async function undo() {
  await run(async () => {
    if (!page.engine) return;
    // Back to the human's previous real move: Tabula's replies, forced passes and the move.
    while (true) {
      const answer = await page.engine.command("undo");
      if (!answer.ok) break;
      await refresh();
      const onlyPass = page.legal.length === 1 && page.legal[0] === "pass";
      if (page.position.toMove === page.human && !onlyPass) break;
    }
    page.previous = null;
    page.hint = null;
    draw();
    await engineTurns();
  });
}

async function hint() {
  await run(async () => {
    if (!page.engine || page.over) return;
    page.busy = true;
    status("Looking for a hint…");
    const asked = page.positionText;
    await page.engine.must("set_option level 8");
    const answer = await page.engine.command("hint");
    await page.engine.must(`set_option level ${page.level}`);
    page.busy = false;
    if (!answer.ok) {
      status(answer.text);
      return;
    }
    if (asked !== page.positionText) return;
    const words = answer.text.split(/\s+/);
    const mover = page.position.toMove;
    const owner = mover === page.human ? "you" : "Tabula";
    const other = page.players > 2 ? "the others" : owner === "you" ? "Tabula" : "you";
    page.hint = words[0];
    const line = answer.text.split(" pv ")[1] || "";
    $("hint-text").textContent = `Play ${words[0]}: ${scoreWords(page.game, words[1], owner, other)}.${line ? ` Line: ${line}` : ""}`;
    draw();
    describeTurn();
    status(`${$("status").textContent} Hint: ${words[0]} — ${scoreWords(page.game, words[1], owner, other)}.`);
  });
}

async function loadPosition() {
  await run(async () => {
    const engine = await connectEngine();
    const text = $("position-text").value.trim();
    if (!text) return;
    if (!page.position) {
      const { game, options } = chosenGame();
      page.game = game;
      page.options = options;
      await engine.must(`set_game ${game} ${optionWords(options)}`);
      await engine.must(`set_option level ${$("level").value}`);
      await engine.must("set_option info stdout");
    }
    const answer = await engine.command(`setposition ${text}`);
    if (!answer.ok) {
      status(answer.text);
      return;
    }
    page.previous = null;
    page.hint = null;
    await refresh();
    draw();
    await engineTurns();
  });
}

async function copyRecord() {
  const text = recordText();
  $("record-text").value = text;
  try {
    await navigator.clipboard.writeText(text);
    status("Record copied.");
  } catch (error) {
    $("record-text").select();
    document.execCommand("copy");
    status("Record selected: copy it with Ctrl+C.");
  }
}

// ---- Rooms ----

function roomIdFrom(text) {
  const match = /([0-9a-f]{32})/i.exec(text || "");
  return match ? match[1].toLowerCase() : null;
}

function roomUrl(id) {
  return `${location.origin}/#room=${id}`;
}

function connectRoom() {
  if (page.roomLink) return page.roomLink;
  page.roomLink = new RoomLink(roomMessage, () => {
    page.roomLink = null;
    if (page.mode === "rooms") status("Disconnected from the server. Join again to resume your seat.");
  });
  return page.roomLink;
}

function seatKey(id) {
  return `tabula-seat-${id}`;
}

// The game form shows the room's game.
function showGame(game, options) {
  $("game").value = game;
  if (game === "reversi") $("reversi-size").value = options.size;
  if (game === "gomoku") {
    $("gomoku-size").value = options.size;
    $("gomoku-rule").value = options.rule;
  }
  if (game === "chinese-checkers") {
    $("cc-players").value = options.players;
    $("cc-jumps").value = options.jumps;
  }
}

function setRoomView(view) {
  const fresh = !page.room || !page.room.view || page.room.view.room !== view.room;
  page.room = page.room && page.room.id === view.room ? page.room : { id: view.room, seat: null };
  if (fresh) {
    showGame(view.game, view.options);
    showOptions();
  }
  page.room.view = view;
  page.hint = null;
  if (view.you !== null && view.you !== undefined) page.room.seat = view.you;
  page.game = view.game;
  page.options = view.options;
  page.players = view.seats.length;
  page.position = parsePosition(view.game, view.options, view.position);
  page.moves = view.moves.map((record) => record.move);
  page.legal = view.legal;
  page.forbidden = view.forbidden;
  page.over = view.status === "finished";
  page.result = view.result ? view.result.text : "";
  if (view.moves.length) {
    // The position before the last move, for its flips and hop path: replayed by the server
    // only, so ask nothing and keep what this page saw, if it saw it.
    if (!page.previous || page.previousPly !== view.moves.length - 1) page.previous = null;
  }
  showRoom();
  draw();
}

function showRoom() {
  const room = page.room;
  if (!room || !room.view) return;
  const view = room.view;
  $("room-link-line").hidden = false;
  $("room-link").href = roomUrl(room.id);
  $("room-link").textContent = roomUrl(room.id);
  const people = seatPeople();
  const seats = $("seats");
  seats.replaceChildren();
  view.seats.forEach((seat) => {
    const item = document.createElement("li");
    item.dataset.seat = String(seat.seat);
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = seatColour(view.game, seat.seat, view.seats.length).swatch;
    item.appendChild(swatch);
    const person = people[seat.seat];
    const flags = [];
    if (seat.kind === "open") flags.push("waiting for a player");
    if (!seat.connected && seat.kind === "remote") flags.push("away");
    if (seat.stand_in) flags.push(`${tabulaName(seat.stand_in)} plays for them`);
    if (seat.out) flags.push(`out (${seat.out})`);
    if (view.to_move === seat.seat) flags.push("to move");
    const colour = seatColour(view.game, seat.seat, view.seats.length).word;
    item.append(` ${colour}: ${person.name}${flags.length ? " — " + flags.join(", ") : ""}`);
    seats.appendChild(item);
  });
  showPlayers();
  if (view.status === "waiting") {
    const open = view.seats.filter((seat) => seat.kind === "open").length;
    status(`Waiting for ${plural(open, "more player")}: share the link.`);
  } else if (view.status === "finished") status(`${endWords()}.`);
  else if (view.to_move === room.seat) status(`Your move (${seatColour(view.game, view.to_move, view.seats.length).word}).`);
  else {
    const person = people[view.to_move];
    const colour = seatColour(view.game, view.to_move, view.seats.length).word;
    status(person.tabula || person.standIn ? `${person.tabula ? person.name : tabulaName(person.standIn)} (${colour}) is thinking…` : `${person.name} (${colour}) to move.`);
  }
}

// Once a second: the clocks in the player bar.
function tickClocks() {
  if (page.mode === "records" || !page.position) return;
  showPlayers();
}

function roomMessage(message) {
  switch (message.type) {
    case "created":
      $("room-id").value = roomUrl(message.room);
      history.replaceState(null, "", `#room=${message.room}`);
      page.roomLink.send({ type: "join", room: message.room, seat: 0, name: $("player-name").value });
      break;
    case "joined":
      localStorage.setItem(seatKey(message.room), JSON.stringify({ seat: message.seat, token: message.token }));
      page.room = { id: message.room, seat: message.seat };
      break;
    case "watching":
      page.room = { id: message.room, seat: null };
      break;
    case "state":
      page.turnSince = Date.now();
      setRoomView(message);
      break;
    case "move": {
      const view = page.room && page.room.view;
      if (!view || view.room !== message.room) break;
      page.previous = page.position;
      page.previousPly = message.ply - 1;
      page.turnSince = Date.now();
      view.moves.push({ seat: message.seat, move: message.move, ms: message.ms });
      view.position = message.position;
      view.to_move = message.to_move;
      view.legal = message.legal;
      view.forbidden = message.forbidden;
      view.clock.left_ms = message.left_ms;
      view.clock.running = message.to_move;
      setRoomView(view);
      break;
    }
    case "seat": {
      const view = page.room && page.room.view;
      if (!view) break;
      view.seats[message.seat] = message;
      showRoom();
      break;
    }
    case "started":
      break;
    case "end": {
      const view = page.room && page.room.view;
      if (!view) break;
      view.status = "finished";
      view.result = message.result;
      view.to_move = null;
      setRoomView(view);
      break;
    }
    case "rematch": {
      // Everyone in the finished room moves to the new one: a seat to the seat it was given.
      const old = page.room;
      if (!old || old.id !== message.room) break;
      const seat = old.seat;
      $("room-id").value = roomUrl(message.next);
      history.replaceState(null, "", `#room=${message.next}`);
      page.previous = null;
      page.room = null;
      if (seat === null || seat === undefined) page.roomLink.send({ type: "watch", room: message.next });
      else page.roomLink.send({ type: "join", room: message.next, seat: message.seats[seat], name: $("player-name").value });
      break;
    }
    case "left":
      page.room = null;
      $("seats").replaceChildren();
      status("You left the room.");
      break;
    case "error":
      status(`Refused: ${message.message}`);
      break;
    default:
      break;
  }
}

async function createRoom() {
  const { game, options } = chosenGame();
  const seats = [...document.querySelectorAll(".seat-spec")].map((select) =>
    select.value === "open" ? { kind: "open" } : { kind: "tabula", level: Number(select.value) });
  const minutes = Number($("clock-minutes").value || 0);
  const increment = Number($("clock-increment").value || 0);
  const message = { type: "create", game, options, seats, absence: $("absence").value };
  if (minutes > 0) message.time = { main_ms: minutes * 60000, increment_ms: increment * 1000 };
  page.previous = null;
  await connectRoom().send(message);
}

async function joinRoom(watch) {
  const id = roomIdFrom($("room-id").value) || (page.room && page.room.id);
  if (!id) {
    status("Paste a room link first.");
    return;
  }
  history.replaceState(null, "", `#room=${id}`);
  page.previous = null;
  const link = connectRoom();
  if (watch) {
    await link.send({ type: "watch", room: id });
    return;
  }
  const saved = localStorage.getItem(seatKey(id));
  if (saved) {
    const { seat, token: seatToken } = JSON.parse(saved);
    await link.send({ type: "resume", room: id, seat, token: seatToken });
  } else {
    await link.send({ type: "join", room: id, name: $("player-name").value });
  }
}

async function roomMove(move) {
  if (!page.roomLink || !page.room || !page.room.view) return;
  await page.roomLink.send({ type: "move", move, ply: page.room.view.moves.length });
}

// ---- Records ----

function recordName(name) {
  const tabula = /^Tabula level (\d+)$/.exec(name);
  return tabula ? tabulaName(tabula[1]) : name;
}

async function showRecords() {
  const body = $("records-table").querySelector("tbody");
  const secret = token();
  let standings;
  try {
    const response = await fetch("/api/players", { headers: secret ? { Authorization: `Bearer ${secret}` } : {} });
    if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
    standings = await response.json();
  } catch (error) {
    $("records-note").textContent = `The records cannot be read: ${error.message}`;
    return;
  }
  body.replaceChildren();
  standings.sort((a, b) => b.games - a.games || a.name.localeCompare(b.name));
  for (const player of standings) {
    const row = document.createElement("tr");
    const points = player.games ? Math.round((100 * (player.wins + player.draws / 2)) / player.games) : 0;
    const cells = [
      recordName(player.name), player.games, player.wins, player.losses, player.draws, `${points}%`,
      player.moves, player.moves ? `${(player.thinking_ms / player.moves / 1000).toFixed(1)} s` : "–",
    ];
    cells.forEach((value, index) => {
      const cell = document.createElement(index === 0 ? "th" : "td");
      if (index === 0) cell.scope = "row";
      cell.textContent = String(value);
      row.appendChild(cell);
    });
    body.appendChild(row);
  }
  $("records-note").textContent = standings.length
    ? `${plural(standings.length, "player")}: every named player's finished room games on this server (a draw counts half).`
    : "No finished room games yet: play a room to the end and its players appear here.";
}

// ---- Wiring ----

function setMode(mode) {
  if (page.mode === "play" && mode !== "play") {
    page.generation++;
    if (page.busy && page.engine) page.engine.command("stop");
  }
  page.mode = mode;
  $("tab-play").setAttribute("aria-pressed", String(mode === "play"));
  $("tab-rooms").setAttribute("aria-pressed", String(mode === "rooms"));
  $("tab-records").setAttribute("aria-pressed", String(mode === "records"));
  $("play-panel").hidden = mode !== "play";
  $("rooms-panel").hidden = mode !== "rooms";
  $("records").hidden = mode !== "records";
  $("board-area").hidden = mode === "records";
  $("panel").hidden = mode === "records";
  document.body.dataset.mode = mode;
  if (mode === "records") {
    showRecords();
    return;
  }
  page.position = null;
  page.previous = null;
  page.hint = null;
  page.over = false;
  $("board").replaceChildren();
  $("players").replaceChildren();
  $("end-actions").hidden = true;
  if (mode === "play") newGame();
  else status("Create a room, or paste a room link to join or watch.");
}

// A room link: resume the seat this browser holds there, or show the room (Join takes a seat).
function openRoomLink(room) {
  const id = roomIdFrom(room);
  if (!id) return;
  $("room-id").value = roomUrl(id);
  if (page.mode !== "rooms") setMode("rooms");
  joinRoom(!localStorage.getItem(seatKey(id)));
}

function start() {
  fillSelects();
  $("game").addEventListener("change", showOptions);
  for (const id of ["reversi-size", "gomoku-size", "cc-players", "gomoku-rule", "cc-jumps"]) $(id).addEventListener("change", showOptions);
  $("tab-play").addEventListener("click", () => setMode("play"));
  $("tab-rooms").addEventListener("click", () => setMode("rooms"));
  $("tab-records").addEventListener("click", () => setMode("records"));
  $("refresh-records").addEventListener("click", showRecords);
  $("new-game").addEventListener("click", newGame);
  $("again").addEventListener("click", again);
  $("rematch").addEventListener("click", rematch);
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("load-position").addEventListener("click", loadPosition);
  $("show-position").addEventListener("click", () => page.position && refresh().then(draw));
  $("copy-record").addEventListener("click", copyRecord);
  $("create-room").addEventListener("click", createRoom);
  $("join-room").addEventListener("click", () => joinRoom(false));
  $("watch-room").addEventListener("click", () => joinRoom(true));
  $("leave-room").addEventListener("click", () => page.roomLink && page.roomLink.send({ type: "leave" }));
  $("resign").addEventListener("click", () => page.roomLink && page.roomLink.send({ type: "resign" }));
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("room-link").textContent);
      status("Link copied.");
    } catch (error) {
      status("Copy the link by hand.");
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea") || page.mode !== "play") return;
    if (event.key === "n") newGame();
    else if (event.key === "u") undo();
    else if (event.key === "h") hint();
  });
  // A room link opened in a tab that already shows the board.
  window.addEventListener("hashchange", () => {
    const room = roomIdFrom(fragment().get("room"));
    if (room && !(page.mode === "rooms" && page.room && page.room.id === room)) openRoomLink(room);
  });
  window.addEventListener("resize", () => page.position && fitBoard());
  page.clockTimer = setInterval(tickClocks, 1000);
  showOptions();
  const room = fragment().get("room");
  if (room) openRoomLink(room);
  else setMode("play");
}

start();
