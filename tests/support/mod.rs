//! A real Cosmos DB NoSQL API server for the provisioning tests:
//! `@vercel/cosmosdb-server` from npm (pinned in the repository's `package.json` and
//! `package-lock.json`, installed by `npm ci`), started on a free loopback port and
//! killed by its PID when dropped. Also a REST client for it (a small Node script),
//! so that tests check the server's state without going through cosmap.
//!
//! A missing Node.js or npm package fails the test with what to install: these tests
//! never skip.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long the server may take to start.
const START_TIMEOUT: Duration = Duration::from_secs(30);

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The server's own `cli.js`, started with three of its faults mended (batches read
/// their partition key from the request, an atomic batch that fails is undone, a
/// missing document is 404): `tests/support/cosmosdb-server.js` says which and why.
fn server_script() -> PathBuf {
    repo().join("tests/support/cosmosdb-server.js")
}

fn rest_script() -> PathBuf {
    repo().join("tests/support/cosmos-rest.js")
}

/// Fails with what to do when Node.js or the server package is missing.
fn check_prerequisites() {
    let node = Command::new("node").arg("--version").output();
    match node {
        Ok(out) if out.status.success() => {}
        _ => panic!(
            "the provisioning tests need Node.js (18 or newer) to run @vercel/cosmosdb-server: \
             install it (Debian/Ubuntu: `apt-get install -y nodejs npm`), then run `npm ci` in {}",
            repo().display()
        ),
    }
    assert!(
        repo().join("node_modules/@vercel/cosmosdb-server/lib/cli.js").is_file(),
        "@vercel/cosmosdb-server is not installed: run `npm ci` in {} (the README's test command does)",
        repo().display()
    );
}

/// A running `@vercel/cosmosdb-server` on 127.0.0.1 (HTTPS, self-signed certificate).
pub struct CosmosServer {
    child: Child,
    port: u16,
}

impl CosmosServer {
    /// Starts a server on a free port and waits until `GET /` answers.
    pub fn start() -> CosmosServer {
        let server = Self::spawn(&server_script(), &["--port", "0", "--host", "127.0.0.1"]);
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            match server.request("GET", "/", None) {
                Ok((200, _)) => return server,
                other if Instant::now() > deadline => {
                    panic!("the server on port {} does not answer: {other:?}", server.port)
                }
                _ => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    /// Starts a loopback HTTPS server that answers every request with `status`
    /// (`tests/support/answer-all.js`), and waits until it answers.
    pub fn answering(status: u16) -> CosmosServer {
        let server = Self::spawn(&repo().join("tests/support/answer-all.js"), &[&status.to_string()]);
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            match server.request("GET", "/", None) {
                Ok((answered, _)) if answered == status => return server,
                other if Instant::now() > deadline => {
                    panic!("the server on port {} does not answer: {other:?}", server.port)
                }
                _ => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    /// Starts `tests/support/interrupting.js`: a real server that stops answering
    /// (dropping every connection, keeping its state) after creating `containers`
    /// containers, until the file `revive` exists.
    pub fn interrupting(containers: u32, revive: &Path) -> CosmosServer {
        let script = repo().join("tests/support/interrupting.js");
        let server = Self::spawn(&script, &[&containers.to_string(), &revive.display().to_string()]);
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            match server.request("GET", "/", None) {
                Ok((200, _)) => return server,
                other if Instant::now() > deadline => {
                    panic!("the server on port {} does not answer: {other:?}", server.port)
                }
                _ => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    /// Runs `node script args…`; the script prints `Ready … :PORT` once listening
    /// (port 0: it picks a free port).
    fn spawn(script: &Path, args: &[&str]) -> CosmosServer {
        check_prerequisites();
        let mut child = Command::new("node")
            .arg(script)
            .args(args)
            .current_dir(repo())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start node: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let (ready, port) = mpsc::channel();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                // "Ready to accept HTTPS connections at 127.0.0.1:41234"
                if !sent && line.starts_with("Ready") {
                    let port = line.rsplit(':').next().and_then(|p| p.trim().parse::<u16>().ok());
                    let _ = ready.send(port);
                    sent = true;
                }
            }
        });
        std::thread::spawn(move || {
            // Drained so the server never blocks on a full pipe.
            let mut sink = String::new();
            let _ = stderr.read_to_string(&mut sink);
        });
        let port = match port.recv_timeout(START_TIMEOUT) {
            Ok(Some(port)) => port,
            other => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "{} did not start within {START_TIMEOUT:?} ({other:?})",
                    script.display()
                );
            }
        };
        CosmosServer { child, port }
    }

    /// `https://127.0.0.1:PORT/`.
    pub fn endpoint(&self) -> String {
        format!("https://127.0.0.1:{}/", self.port)
    }

    /// `GET path` through the REST API: status and JSON body.
    pub fn get(&self, path: &str) -> (u16, Value) {
        self.request("GET", path, None)
            .unwrap_or_else(|e| panic!("GET {path}: {e}"))
    }

    /// `POST path` with a JSON body (test setup only).
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.request("POST", path, Some(body))
            .unwrap_or_else(|e| panic!("POST {path}: {e}"))
    }

    /// The ids of the containers in `database`, sorted.
    pub fn container_ids(&self, database: &str) -> Vec<String> {
        let (status, body) = self.get(&format!("/dbs/{database}/colls"));
        assert_eq!(status, 200, "list containers of {database}: {body}");
        let mut ids: Vec<String> = body["DocumentCollections"]
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|c| c["id"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        ids.sort();
        ids
    }

    /// `_etag`, `_ts` and `_rid` of the database and each of its containers: any
    /// write to them changes this.
    pub fn fingerprint(&self, database: &str) -> Vec<String> {
        let system = |v: &Value| format!("{} {} {} {}", v["id"], v["_etag"], v["_ts"], v["_rid"]);
        let (status, db) = self.get(&format!("/dbs/{database}"));
        assert_eq!(status, 200, "read database {database}: {db}");
        let mut out = vec![system(&db)];
        for id in self.container_ids(database) {
            let (status, container) = self.get(&format!("/dbs/{database}/colls/{id}"));
            assert_eq!(status, 200, "read container {id}: {container}");
            out.push(format!("{} {}", system(&container), container["indexingPolicy"]));
        }
        out
    }

    fn request(&self, method: &str, path: &str, body: Option<&Value>) -> Result<(u16, Value), String> {
        let url = format!("https://127.0.0.1:{}{path}", self.port);
        let mut command = Command::new("node");
        command.arg(rest_script()).arg(method).arg(&url);
        if let Some(body) = body {
            command.arg(body.to_string());
        }
        let out = command.output().map_err(|e| format!("cannot run node: {e}"))?;
        let reply: Value = serde_json::from_slice(&out.stdout)
            .map_err(|e| format!("{e}: {}", String::from_utf8_lossy(&out.stderr)))?;
        match reply["status"].as_u64() {
            Some(status) => Ok((u16::try_from(status).unwrap_or(0), reply["body"].clone())),
            None => Err(reply.to_string()),
        }
    }
}

impl Drop for CosmosServer {
    fn drop(&mut self) {
        // By PID: `node` is the server process itself (no shell, no npx).
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes `content` to a fresh file under the test's scratch directory.
pub fn scratch_file(name: &str, content: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("provision-tests");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path = dir.join(name);
    std::fs::write(&path, content).expect("scratch file");
    path
}

/// Runs `cosmap` with `args` and `env` (and none of the COSMOS_* variables of this
/// process), and fails the test if `secret` appears anywhere in its output.
pub fn cosmap_without_leaking(args: &[&str], env: &[(&str, &str)], secret: &str) -> std::process::Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_cosmap"));
    command
        .args(args)
        .current_dir(repo())
        .env_remove("COSMOS_ENDPOINT")
        .env_remove("COSMOS_KEY");
    for (name, value) in env {
        command.env(name, value);
    }
    let out = command.output().expect("cosmap runs");
    for text in [&out.stdout, &out.stderr] {
        assert!(
            !String::from_utf8_lossy(text).contains(secret),
            "the key appeared in the output of {args:?}"
        );
    }
    out
}
