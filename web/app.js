// The web board: play Tabula over an engine session (our protocol over /ws/engine), or play and
// watch refereed rooms (JSON messages over /ws/room).

import { BoardView, parsePosition, PLAYER_COLOURS } from "./boards.js";

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
  previous: null,
  legal: [],
  forbidden: [],
  moves: [],
  players: 2,
  human: 0,
  over: false,
  result: "",
  hint: null,
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
    option.textContent = players === 2 && game !== "chinese-checkers" ? (index === 0 ? "Black (first)" : "White (second)") : `Player ${index + 1}`;
    seat.appendChild(option);
  }
  if (previous && Number(previous) < players) seat.value = previous;
  // Room seats: one selector per seat.
  const specs = $("seat-specs");
  specs.replaceChildren();
  for (let index = 0; index < players; index++) {
    const label = document.createElement("label");
    label.textContent = `Seat ${seatName(game, index, players)} `;
    const select = document.createElement("select");
    select.className = "seat-spec";
    const open = document.createElement("option");
    open.value = "open";
    open.textContent = index === 0 ? "you" : "open (a person or an engine)";
    select.appendChild(open);
    for (let level = 1; level <= 8; level++) {
      const option = document.createElement("option");
      option.value = String(level);
      option.textContent = `Tabula level ${level}`;
      select.appendChild(option);
    }
    if (index > 0 && players > 2) select.value = "2";
    label.appendChild(select);
    specs.appendChild(label);
  }
}

function draw() {
  if (!page.position) return;
  const mine = page.mode === "play"
    ? !page.over && !page.busy && page.position.toMove === page.human
    : page.room && page.room.view && page.room.view.to_move !== null && page.room.view.to_move === page.room.seat;
  board.render({
    game: page.game,
    options: page.options,
    position: page.position,
    previous: page.previous,
    legal: mine ? page.legal : [],
    forbidden: page.forbidden,
    lastMove: page.moves.length ? page.moves[page.moves.length - 1] : null,
    hint: page.hint,
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
}

function recordText() {
  return `${page.game} ${optionWords(page.options)}\n${page.moves.join(" ")}${page.result ? "\nresult " + page.result : ""}`;
}

// ---- Playing Tabula ----

// Search information while Tabula thinks about its own move (hints report on their own line).
function engineInfo(line) {
  if (page.searching !== "move") return;
  const score = /score (\S+)/.exec(line);
  const depth = /depth (\d+)/.exec(line);
  const pv = / pv (.*)$/.exec(line);
  const who = seatName(page.game, page.position ? page.position.toMove : 0, page.players);
  if (score) $("evaluation").textContent = `${score[1]} for ${who} (depth ${depth ? depth[1] : "?"})`;
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
  page.moves = moves ? moves.split(/\s+/) : [];
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
    status(`Game over: ${page.result}.`);
    return;
  }
  const toMove = page.position.toMove;
  const who = seatName(page.game, toMove, page.players);
  status(toMove === page.human ? `Your move (${who}).` : `Tabula (${who}) is thinking…`);
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
    page.previous = null;
    page.hint = null;
    await engine.must(`set_game ${game} ${optionWords(options)}`);
    await engine.must(`set_option level ${$("level").value}`);
    await engine.must("set_option info stdout");
    $("evaluation").textContent = "–";
    $("pv").textContent = "–";
    $("hint-text").textContent = "–";
    await refresh();
    draw();
    await engineTurns();
  });
}

async function humanMove(move) {
  await run(async () => {
    if (page.busy || page.over) return;
    page.hint = null;
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
    const level = $("level").value;
    await page.engine.must("set_option level 8");
    const answer = await page.engine.command("hint");
    await page.engine.must(`set_option level ${level}`);
    page.busy = false;
    if (!answer.ok) {
      status(answer.text);
      return;
    }
    const words = answer.text.split(/\s+/);
    page.hint = words[0];
    $("hint-text").textContent = `${words[0]} (${words[1]}), line ${answer.text.split(" pv ")[1] || ""}`;
    draw();
    describeTurn();
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
  const seats = $("seats");
  seats.replaceChildren();
  view.seats.forEach((seat) => {
    const item = document.createElement("li");
    item.dataset.seat = String(seat.seat);
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = view.game === "chinese-checkers" ? PLAYER_COLOURS[seat.seat] : seat.seat === 0 ? "#111" : "#f5f5f5";
    item.appendChild(swatch);
    const who = seat.name || (seat.kind === "open" ? "open seat" : seat.kind);
    const flags = [];
    if (seat.seat === room.seat) flags.push("you");
    if (!seat.connected && seat.kind === "remote") flags.push("away");
    if (seat.stand_in) flags.push(`Tabula level ${seat.stand_in} plays`);
    if (seat.out) flags.push(`out (${seat.out})`);
    if (view.to_move === seat.seat) flags.push("to move");
    const clock = view.clock.left_ms.length ? ` ${formatClock(view.clock.left_ms[seat.seat])}` : "";
    item.append(` ${seat.player}: ${who}${flags.length ? " — " + flags.join(", ") : ""}${clock}`);
    seats.appendChild(item);
  });
  if (view.status === "waiting") status("Waiting for players: share the link.");
  else if (view.status === "finished") status(`Game over: ${view.result.text} (${view.result.reason}).`);
  else if (view.to_move === room.seat) status("Your move.");
  else status(`${view.seats[view.to_move].player} to move.`);
}

function formatClock(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function tickClocks() {
  const view = page.room && page.room.view;
  if (!view || view.status !== "playing" || !view.clock.left_ms.length || view.clock.running === null) return;
  view.clock.left_ms[view.clock.running] = Math.max(0, view.clock.left_ms[view.clock.running] - 1000);
  showRoom();
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
      setRoomView(message);
      break;
    case "move": {
      const view = page.room && page.room.view;
      if (!view || view.room !== message.room) break;
      page.previous = page.position;
      page.previousPly = message.ply - 1;
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

// ---- Wiring ----

function setMode(mode) {
  page.mode = mode;
  $("tab-play").setAttribute("aria-pressed", String(mode === "play"));
  $("tab-rooms").setAttribute("aria-pressed", String(mode === "rooms"));
  $("play-panel").hidden = mode !== "play";
  $("rooms-panel").hidden = mode !== "rooms";
  page.position = null;
  page.previous = null;
  $("board").replaceChildren();
  if (mode === "play") newGame();
  else status("Create a room, or paste a room link to join or watch.");
}

function start() {
  $("game").addEventListener("change", showOptions);
  for (const id of ["reversi-size", "gomoku-size", "cc-players", "gomoku-rule", "cc-jumps"]) $(id).addEventListener("change", showOptions);
  $("tab-play").addEventListener("click", () => setMode("play"));
  $("tab-rooms").addEventListener("click", () => setMode("rooms"));
  $("new-game").addEventListener("click", newGame);
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
  page.clockTimer = setInterval(tickClocks, 1000);
  showOptions();
  const room = fragment().get("room");
  if (room) {
    $("room-id").value = roomUrl(room);
    setMode("rooms");
    // A seat this browser holds is resumed; otherwise the room is shown and Join takes a seat.
    joinRoom(!localStorage.getItem(seatKey(roomIdFrom(room))));
  } else {
    setMode("play");
  }
}

start();
