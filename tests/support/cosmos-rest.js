// Reads (and, for test setup, writes) a resource of a local Cosmos DB test server
// through its REST API, independently of the code under test.
//
//   node cosmos-rest.js METHOD URL [JSON-BODY]
//
// Prints {"status": N, "body": <parsed JSON or text>} or {"error": "..."}; exits 0.
// Only loopback URLs are accepted: certificate checks are off (the test server's
// certificate is self-signed), and the test server ignores authorisation.
"use strict";
const http = require("http");
const https = require("https");

const [method, target, body] = process.argv.slice(2);
const url = new URL(target);
if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
  console.error(`refusing a non-loopback URL: ${target}`);
  process.exit(2);
}
const headers = {
  accept: "application/json",
  "x-ms-version": "2018-12-31",
  "x-ms-date": new Date().toUTCString(),
  authorization: "test-server-ignores-authorisation",
};
if (body !== undefined) {
  headers["content-type"] = "application/json";
  headers["content-length"] = Buffer.byteLength(body);
}
const client = url.protocol === "https:" ? https : http;
const request = client.request(url, { method, headers, rejectUnauthorized: false }, (response) => {
  let text = "";
  response.setEncoding("utf8");
  response.on("data", (chunk) => (text += chunk));
  response.on("end", () => {
    let parsed = text;
    try {
      parsed = JSON.parse(text);
    } catch (_) {
      // not JSON: keep the text
    }
    process.stdout.write(JSON.stringify({ status: response.statusCode, body: parsed }));
  });
});
request.setTimeout(5000, () => request.destroy(new Error("timed out")));
request.on("error", (error) => process.stdout.write(JSON.stringify({ error: error.code || error.message })));
if (body !== undefined) {
  request.write(body);
}
request.end();
