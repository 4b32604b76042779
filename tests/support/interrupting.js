// @vercel/cosmosdb-server that "dies" after creating N containers: from then on it
// drops every connection unanswered, as a killed server would, but keeps its state,
// until the file REVIVE exists; then it answers again with everything it had.
// For testing what provisioning reports when the server goes away mid-apply, and
// that running it again converges.
//
//   node interrupting.js N REVIVE   (prints "Ready to accept HTTPS connections at 127.0.0.1:PORT")
"use strict";
const fs = require("fs");
const { createHttpsServer } = require("@vercel/cosmosdb-server");

const limit = parseInt(process.argv[2], 10);
const revive = process.argv[3];
let created = 0;

const server = createHttpsServer();
const [handler] = server.listeners("request");
server.removeAllListeners("request");
server.on("request", (request, response) => {
  if (created >= limit && !fs.existsSync(revive)) {
    request.socket.destroy();
    return;
  }
  response.on("finish", () => {
    if (request.method === "POST" && /^\/dbs\/[^/]+\/colls\/?$/.test(request.url) && response.statusCode === 201) {
      created += 1;
    }
  });
  handler(request, response);
});
server.listen(0, "127.0.0.1", () => {
  console.log(`Ready to accept HTTPS connections at 127.0.0.1:${server.address().port}`);
});
