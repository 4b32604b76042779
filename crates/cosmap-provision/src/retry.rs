//! Bounded retries with exponential backoff, and a timeout on every request.
//!
//! Retried: answers from the server that say "try again" — 429 (throttled; its
//! `x-ms-retry-after-ms` is honoured up to `max_backoff`), 449, 408 and the
//! transient 5xx (500, 502, 503, 504). Not retried: everything else, failures to
//! connect (the SDK has already retried the connection itself, and an unreachable
//! endpoint should fail fast), and a request that got no answer within
//! `request_timeout` (it may have been applied; the next run sees its effect).
//! The SDK's own throttling retries are switched off (see [`crate::client`]) so
//! that this is the only retry policy.

use std::future::Future;
use std::time::Duration;

use azure_data_cosmos::CosmosError;

/// How often and how long to retry, and how long to wait for any one answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (at least 1).
    pub max_attempts: u32,
    /// Wait before the first retry; doubled for each further retry.
    pub first_backoff: Duration,
    /// Longest wait between two attempts (also caps the server's retry-after).
    pub max_backoff: Duration,
    /// Longest wait for one request's answer.
    pub request_timeout: Duration,
}

impl Default for RetryPolicy {
    /// 5 attempts, waits of 0.25, 0.5, 1 and 2 s (up to 8 s when the server asks
    /// for longer), 30 s per request.
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 5,
            first_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(8),
            request_timeout: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `retry` (1 for the first retry).
    fn backoff(&self, retry: u32) -> Duration {
        let factor = 1u32.checked_shl(retry.saturating_sub(1)).unwrap_or(u32::MAX);
        self.first_backoff.saturating_mul(factor).min(self.max_backoff)
    }
}

/// What a failed attempt says about trying again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Transient: retry, after the server's wait if it named one.
    Retry { after: Option<Duration> },
    /// Final.
    GiveUp,
}

/// How a request finally failed.
#[derive(Debug)]
pub(crate) enum Failure<E> {
    /// The last error, final or after the last allowed attempt.
    Error { error: E, attempts: u32, exhausted: bool },
    /// No answer within the request timeout.
    TimedOut,
}

/// Whether the SDK error is worth another attempt.
pub(crate) fn verdict(error: &CosmosError) -> Verdict {
    let code = u16::from(error.status());
    // An answer whose body does not parse (the SDK's 500/20020) will not parse next time.
    if crate::error::is_unreadable_body(error) {
        return Verdict::GiveUp;
    }
    if error.is_from_wire() && matches!(code, 408 | 429 | 449 | 500 | 502 | 503 | 504) {
        let after = error
            .response()
            .and_then(|response| response.headers().retry_after_ms)
            .map(Duration::from_millis);
        Verdict::Retry { after }
    } else {
        Verdict::GiveUp
    }
}

/// Runs `attempt` until it succeeds, fails for good, runs out of attempts or times
/// out. `on_retry(attempt, error, wait)` is told about each retry.
pub(crate) async fn run<T, E, F, Fut>(
    policy: &RetryPolicy,
    mut attempt: F,
    classify: impl Fn(&E) -> Verdict,
    mut on_retry: impl FnMut(u32, &E, Duration),
) -> Result<T, Failure<E>>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let max_attempts = policy.max_attempts.max(1);
    let mut attempts = 0;
    loop {
        attempts += 1;
        let error = match tokio::time::timeout(policy.request_timeout, attempt()).await {
            Err(_elapsed) => return Err(Failure::TimedOut),
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(error)) => error,
        };
        match classify(&error) {
            Verdict::Retry { after } if attempts < max_attempts => {
                let wait = after.map_or_else(|| policy.backoff(attempts), |after| after.min(policy.max_backoff));
                on_retry(attempts, &error, wait);
                tokio::time::sleep(wait).await;
            }
            verdict => {
                return Err(Failure::Error {
                    error,
                    attempts,
                    exhausted: verdict != Verdict::GiveUp,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    fn quick(max_attempts: u32) -> RetryPolicy {
        RetryPolicy {
            max_attempts,
            first_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(4),
            request_timeout: Duration::from_millis(200),
        }
    }

    /// A fake error: the HTTP status, and the retry-after the server sent.
    #[derive(Debug, Clone, Copy, PartialEq)]
    struct Fake(u16, Option<u64>);

    fn classify(e: &Fake) -> Verdict {
        match e.0 {
            429 | 503 => Verdict::Retry {
                after: e.1.map(Duration::from_millis),
            },
            _ => Verdict::GiveUp,
        }
    }

    #[test]
    fn backoff_doubles_and_is_capped() {
        let policy = RetryPolicy::default();
        let waits: Vec<_> = (1..=7).map(|n| policy.backoff(n).as_millis()).collect();
        assert_eq!(waits, [250, 500, 1000, 2000, 4000, 8000, 8000]);
        assert_eq!(policy.backoff(200), Duration::from_secs(8));
    }

    #[tokio::test]
    async fn transient_failures_are_retried_until_success() {
        let calls = Cell::new(0);
        let mut waits = vec![];
        let result = run(
            &quick(5),
            || {
                calls.set(calls.get() + 1);
                let n = calls.get();
                async move {
                    if n < 3 {
                        Err(Fake(503, None))
                    } else {
                        Ok(n)
                    }
                }
            },
            classify,
            |_, _, wait| waits.push(wait),
        )
        .await;
        assert_eq!(result.ok(), Some(3));
        assert_eq!(waits, [Duration::from_millis(1), Duration::from_millis(2)]);
    }

    #[tokio::test]
    async fn retries_are_bounded_and_honour_retry_after_up_to_the_cap() {
        let calls = Cell::new(0);
        let mut waits = vec![];
        let result: Result<(), _> = run(
            &quick(3),
            || {
                calls.set(calls.get() + 1);
                async { Err(Fake(429, Some(100))) }
            },
            classify,
            |_, _, wait| waits.push(wait),
        )
        .await;
        assert!(matches!(
            result,
            Err(Failure::Error {
                error: Fake(429, _),
                attempts: 3,
                exhausted: true
            })
        ));
        assert_eq!(calls.get(), 3);
        assert_eq!(waits, [Duration::from_millis(4); 2]);
    }

    #[tokio::test]
    async fn final_errors_are_not_retried() {
        let calls = Cell::new(0);
        let result: Result<(), _> = run(
            &quick(5),
            || {
                calls.set(calls.get() + 1);
                async { Err(Fake(401, None)) }
            },
            classify,
            |_, _, _| {},
        )
        .await;
        assert!(matches!(
            result,
            Err(Failure::Error {
                attempts: 1,
                exhausted: false,
                ..
            })
        ));
        assert_eq!(calls.get(), 1);
    }

    #[tokio::test]
    async fn a_silent_request_times_out_and_is_not_retried() {
        let calls = Cell::new(0);
        let started = std::time::Instant::now();
        let result: Result<(), Failure<Fake>> = run(
            &quick(5),
            || {
                calls.set(calls.get() + 1);
                async {
                    tokio::time::sleep(Duration::from_secs(60)).await;
                    Ok(())
                }
            },
            classify,
            |_, _, _| {},
        )
        .await;
        assert!(matches!(result, Err(Failure::TimedOut)));
        assert_eq!(calls.get(), 1);
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
