#!/usr/bin/env node
// A bot for every shedkit game in Node.js, no dependencies: the bot protocol on stdin/stdout.
//
// It plays the lowest legal play: the first move of the engine's list that is not "pass"
// (the engine lists pass first, then each kind of play from low to high).
//
//   shedkit arena doudizhu --agents "cmd:node examples/bots/js/bot.js",greedy --deals 200
"use strict";

const readline = require("node:readline");

const input = readline.createInterface({ input: process.stdin, terminal: false });

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    send({ type: "ready", name: "lowest (node)" });
  } else if (message.type === "act") {
    const plays = message.moves.filter((m) => m !== "pass");
    send({ type: "move", id: message.id, move: plays.length ? plays[0] : "pass" });
  } else if (message.type === "match_end") {
    input.close();
  }
  // deal_end, and any message a later protocol version adds, need no answer.
});
