//! Paced replay: write AG-UI events with the gaps they were recorded with.
//!
//! The gap before an event is the difference between its `timestamp` (ms; v3 logs and AG-UI
//! captures carry one) and the last timestamp seen, divided by the speed factor and capped by
//! the maximum gap. An event without a timestamp (or the first timestamped event after
//! untimed ones) waits the fixed interval instead, also divided by the speed and capped. The
//! first event is written at once.
//!
//! [`Pacer`] only computes delays, so `convert --pace` (which sleeps before each event and
//! flushes after it) and the async server (`serve`) share one rule.

use std::time::Duration;

use clap::builder::TypedValueParser;

/// How to pace a replay (`convert --pace`, `serve`): the CLI's options, and its defaults as
/// [`Pacing::default`] (real time, gaps capped at 10 s, 20 ms between untimed events).
#[derive(Debug, Clone, Copy, PartialEq, clap::Parser)]
pub struct Pacing {
    /// Playback speed: 2 replays twice as fast as recorded, 0.5 half as fast
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = parse_speed)]
    pub speed: f64,
    /// Cap on any single gap after scaling, in ms (0: no cap)
    #[arg(long, value_name = "MS", default_value = "10000",
          value_parser = clap::value_parser!(u64).map(|ms| (ms > 0).then(|| Duration::from_millis(ms))))]
    pub max_gap: std::option::Option<Duration>,
    /// Gap before events without a timestamp (v2 logs), in ms, scaled by --speed
    #[arg(long, value_name = "MS", default_value = "20", value_parser = millis())]
    pub interval: Duration,
}

impl Default for Pacing {
    fn default() -> Self {
        clap::Parser::parse_from(["aguify"])
    }
}

/// A count of milliseconds given on the command line, as a duration.
pub fn millis() -> impl TypedValueParser<Value = Duration> {
    clap::value_parser!(u64).map(Duration::from_millis)
}

/// A count of at least 1 given on the command line (`--threads 0`, `--max-connections 0`
/// would mean nothing).
pub fn positive(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// A JSON pointer pattern given on the command line (`--ignore`, `--keep`).
pub fn pointer(s: &str) -> Result<String, String> {
    let why = "expected a JSON pointer starting with /";
    s.starts_with('/').then(|| s.to_string()).ok_or(why.into())
}

/// `--speed`: a finite number above 0.
fn parse_speed(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("`{s}` is not a positive number")),
    }
}

impl Pacing {
    /// Replays with no waiting at all (tests, `--speed` of infinity in effect).
    pub fn instant() -> Self {
        Pacing {
            speed: 1.0,
            max_gap: Some(Duration::ZERO),
            interval: Duration::ZERO,
        }
    }

    fn scale(&self, d: Duration) -> Duration {
        let speed = if self.speed.is_finite() && self.speed > 0.0 {
            self.speed
        } else {
            1.0
        };
        let scaled = Duration::try_from_secs_f64(d.as_secs_f64() / speed).unwrap_or(Duration::MAX);
        self.max_gap.map_or(scaled, |cap| scaled.min(cap))
    }
}

/// Computes the wait before each event of one stream.
#[derive(Debug, Clone)]
pub struct Pacer {
    pacing: Pacing,
    last_timestamp: Option<i64>,
    first: bool,
}

impl Pacer {
    pub fn new(pacing: Pacing) -> Self {
        Pacer {
            pacing,
            last_timestamp: None,
            first: true,
        }
    }

    /// The wait before an event with timestamp `ts` (ms), if it has one (call once per
    /// event, in order).
    pub fn delay_for(&mut self, ts: Option<i64>) -> Duration {
        let first = std::mem::replace(&mut self.first, false);
        let raw = match (ts, self.last_timestamp) {
            _ if first => Duration::ZERO,
            (Some(now), Some(before)) => {
                Duration::from_millis(now.saturating_sub(before).max(0).unsigned_abs())
            }
            _ => self.pacing.interval,
        };
        if ts.is_some() {
            self.last_timestamp = ts;
        }
        self.pacing.scale(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn recorded_gaps_scaled_and_capped() {
        let mut p = Pacer::new(Pacing {
            speed: 2.0,
            max_gap: Some(ms(1000)),
            interval: ms(20),
        });
        assert_eq!(p.delay_for(Some(1000)), ms(0));
        assert_eq!(p.delay_for(Some(1400)), ms(200));
        // No timestamp: the interval, scaled.
        assert_eq!(p.delay_for(None), ms(10));
        // Gap measured from the last timestamp seen; capped.
        assert_eq!(p.delay_for(Some(9400)), ms(1000));
        // Clock going backwards waits nothing.
        assert_eq!(p.delay_for(Some(100)), ms(0));
    }

    #[test]
    fn untimed_stream_uses_interval_and_no_cap() {
        let mut p = Pacer::new(Pacing {
            speed: 0.5,
            max_gap: None,
            interval: ms(20),
        });
        assert_eq!(p.delay_for(None), ms(0));
        assert_eq!(p.delay_for(None), ms(40));
        let mut p = Pacer::new(Pacing::instant());
        p.delay_for(Some(0));
        assert_eq!(p.delay_for(Some(99999)), ms(0));
    }
}
