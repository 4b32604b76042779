// A loopback HTTPS server that answers every request with one status (argv[2]) and a
// Cosmos DB-style error body: for testing how cosmap reports rejected keys and
// throttling. Uses the self-signed certificate shipped with @vercel/cosmosdb-server.
//
//   node answer-all.js STATUS      (prints "Ready to accept HTTPS connections at 127.0.0.1:PORT")
"use strict";
const fs = require("fs");
const https = require("https");
const path = require("path");

const status = parseInt(process.argv[2], 10);
const certificates = path.join(__dirname, "..", "..", "node_modules", "@vercel", "cosmosdb-server");
const options = {
  key: fs.readFileSync(path.join(certificates, "key.pem")),
  cert: fs.readFileSync(path.join(certificates, "cert.pem")),
};
const server = https.createServer(options, (request, response) => {
  request.resume();
  response.statusCode = status;
  response.setHeader("content-type", "application/json");
  response.setHeader("x-ms-activity-id", "00000000-0000-0000-0000-000000000000");
  response.end(JSON.stringify({ code: String(status), message: `every request is answered ${status}` }));
});
server.listen(0, "127.0.0.1", () => {
  console.log(`Ready to accept HTTPS connections at 127.0.0.1:${server.address().port}`);
});
