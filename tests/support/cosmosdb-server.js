// @vercel/cosmosdb-server (pinned in package.json) started as its own `cli.js` starts it,
// with three of its faults mended where Cosmos DB's documented behaviour is plain, so the
// tests can prove on it what the service does (../../shared/COSMOS-LOCAL.md lists them):
//
// - a transactional batch sends its partition key once, in the request's
//   `x-ms-documentdb-partitionkey` header; the server read it from each operation, found
//   none and answered 500 to any batch that reads, replaces or deletes. Each operation
//   without one now takes the header's;
// - a transactional batch (`x-ms-cosmos-batch-atomic`) that fails is not applied at all:
//   the server left the operations before the failing one applied. The collection's
//   documents are now restored as they were before the batch;
// - a point read of a document that does not exist is 404 Not Found; the server
//   answered 500 (it read a property of the missing document).
//
//   node cosmosdb-server.js --port 0 --host 127.0.0.1   (prints "Ready to accept HTTPS connections at HOST:PORT")
"use strict";
const path = require("path");

const lib = path.join(__dirname, "..", "..", "node_modules", "@vercel", "cosmosdb-server", "lib");
const trueHeader = require(path.join(lib, "true-header")).default;
const partitionHeader = require(path.join(lib, "utils", "get-partition-from-header"));

// The batch's operations take the request's partition key where they carry none.
const json = require(path.join(lib, "json"));
const parse = json.default;
json.default = async (req) => {
  const body = await parse(req);
  const key = partitionHeader.default(req);
  if (Array.isArray(body) && key !== undefined && trueHeader(req, "x-ms-cosmos-is-batch-request")) {
    for (const operation of body) {
      if (operation && operation.partitionKey === undefined) {
        operation.partitionKey = key;
      }
    }
  }
  return body;
};

// An atomic batch that fails leaves the collection as it was. Each write makes a new
// item object (`Items._set`), so copies of the maps keep the documents as they were.
const batch = require(path.join(lib, "handler", "batch-documents"));
const runBatch = batch.default;
batch.default = async (account, req, res, params) => {
  const collection = account.database(params.dbId).collection(params.collId);
  const items = collection.read() ? collection.documents : null;
  const before = items && {
    data: new Map(items._data),
    index: new Map(items._index),
    ridCount: items._ridCount,
  };
  const result = await runBatch(account, req, res, params);
  const failed = Array.isArray(result) && result.some((r) => r.statusCode >= 400);
  if (before && failed && trueHeader(req, "x-ms-cosmos-batch-atomic")) {
    items._data = before.data;
    items._index = before.index;
    items._ridCount = before.ridCount;
  }
  return result;
};

// A point read of a missing document is 404.
const readDocument = require(path.join(lib, "handler", "read-document"));
const runRead = readDocument.default;
readDocument.default = (account, req, res, params) => {
  const collection = account.database(params.dbId).collection(params.collId);
  const key = partitionHeader.default(req);
  if (collection.read() && key !== undefined && !trueHeader(req, "x-ms-documentdb-query-enablecrosspartition")) {
    let found = true;
    try {
      found = Boolean(collection.document(params.docId, partitionHeader.parsePartitionKey(key, params.docId)).read());
    } catch (error) {
      // An unreadable key: the server's own handler answers it.
    }
    if (!found) {
      res.statusCode = 404;
      return { code: "NotFound", message: "Entity with the specified id does not exist in the system." };
    }
  }
  return runRead(account, req, res, params);
};

// The routes are built when the server's index is first required: after the patches.
require(path.join(lib, "cli.js"));
