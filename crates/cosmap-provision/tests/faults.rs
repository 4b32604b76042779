//! Faults on a real socket (loopback only): a closed port and a server that never
//! answers give clear, bounded failures, and no error carries the key.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use cosmap_provision::{AccountKey, Connection, ProvisionError, RetryPolicy, Settings, Target};

const KEY: &str = "RkFVTFRTLVRFU1QtS0VZLU1VU1QtTkVWRVItQVBQRUFS";

fn target(port: u16) -> Target {
    Target::new(
        &format!("https://127.0.0.1:{port}/"),
        Some(AccountKey::new(KEY)),
        "Shop",
    )
    .expect("valid target")
}

fn assert_no_key(error: &ProvisionError) {
    for text in [
        error.to_string(),
        format!("{error:?}"),
        error.hint().unwrap_or_default(),
    ] {
        assert!(!text.contains(KEY), "the key leaked: {text}");
    }
}

#[tokio::test]
async fn a_closed_port_is_reported_as_unreachable_with_the_cause() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("address").port()
    };
    let started = Instant::now();
    let error = match Connection::open(&target(port), Settings::default()).await {
        Ok(_) => panic!("nothing listens on {port}"),
        Err(error) => error,
    };
    assert_eq!(
        error.to_string(),
        format!("cannot reach https://127.0.0.1:{port}/: connection refused")
    );
    assert!(error.hint().is_some_and(|h| h.contains("emulator")));
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    assert_no_key(&error);
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    // Accepts connections and holds them without a word, for a few seconds.
    std::thread::spawn(move || {
        let mut held = vec![];
        let _ = listener.set_nonblocking(true);
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until {
            if let Ok((stream, _)) = listener.accept() {
                held.push(stream);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    });
    let settings = Settings::default().retry(RetryPolicy {
        request_timeout: Duration::from_millis(500),
        ..RetryPolicy::default()
    });
    let started = Instant::now();
    let error = match Connection::open(&target(port), settings).await {
        Ok(_) => panic!("the server never answers"),
        Err(error) => error,
    };
    assert!(matches!(error, ProvisionError::TimedOut { .. }), "{error}");
    assert_eq!(
        error.to_string(),
        format!("could not read the account: no answer from https://127.0.0.1:{port}/ within 0.5 s")
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
    assert_no_key(&error);
}
