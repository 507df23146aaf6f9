//! [`Clock`]: time since the start, the frame's delta and index, fixed steps.

use std::time::Duration;

use web_time::Instant;

/// The most steps [`Clock::fixed_steps`] yields in one frame: after a long stall (a debugger, a
/// minimized window) the oldest steps are dropped rather than run all at once.
pub const MAX_FIXED_STEPS: u64 = 8;

/// Time as the frames see it. On the wall clock (the default), `time` is the time since the
/// first frame began and `delta` the time since the last frame; with a fixed delta
/// ([`AppSettings::fixed_delta`](super::AppSettings::fixed_delta), for tests and recordings)
/// every frame advances by exactly that, whatever the wall clock says (0 keeps the time at 0).
/// In both, `time` is the sum of the deltas so far, the first frame's included.
#[derive(Clone, Debug)]
pub struct Clock {
    start: Option<Instant>,
    fixed: Option<Duration>,
    time: Duration,
    delta: Duration,
    frame: u64,
    /// No frame has ticked yet.
    fresh: bool,
}

impl Clock {
    /// A clock before its first frame, on the wall clock or advancing by `fixed` a frame.
    pub fn new(fixed: Option<Duration>) -> Clock {
        Clock {
            start: None,
            fixed,
            time: Duration::ZERO,
            delta: Duration::ZERO,
            frame: 0,
            fresh: true,
        }
    }

    /// Moves to the next frame (the runner calls it before each frame callback): the first
    /// call starts frame 0.
    pub fn tick(&mut self) {
        if self.fresh {
            self.fresh = false;
        } else {
            self.frame += 1;
        }
        let time = match self.fixed {
            Some(step) => self.time + step,
            None => {
                let start = *self.start.get_or_insert_with(Instant::now);
                start.elapsed()
            }
        };
        self.delta = time.saturating_sub(self.time);
        self.time = time;
    }

    /// Seconds since the first frame began (see [`Clock`]).
    pub fn time(&self) -> f32 {
        self.time.as_secs_f32()
    }

    /// [`time`](Self::time) as a `Duration`.
    pub fn elapsed(&self) -> Duration {
        self.time
    }

    /// Seconds since the last frame (the first frame: since it began, about 0 on the wall
    /// clock; the fixed delta with one).
    pub fn delta(&self) -> f32 {
        self.delta.as_secs_f32()
    }

    /// [`delta`](Self::delta) as a `Duration`.
    pub fn delta_duration(&self) -> Duration {
        self.delta
    }

    /// This frame's index: 0 for the first frame the app renders, counting the frames its
    /// callback was called for (not those skipped while the window was minimized).
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// The fixed delta of every frame, if the clock has one.
    pub fn fixed_delta(&self) -> Option<Duration> {
        self.fixed
    }

    /// The fixed steps of `step` length that end within this frame: step `k` covers
    /// `[k · step, (k + 1) · step)` of [`elapsed`](Self::elapsed) time, and ends in the frame
    /// whose time range `(time − delta, time]` holds `(k + 1) · step`. Over the frames each step
    /// comes once, in order, whatever the frame rate; at most [`MAX_FIXED_STEPS`] a frame (the
    /// latest ones). Yields the steps' indices. A zero `step` yields nothing.
    ///
    /// ```
    /// use std::time::Duration;
    /// use vgpu::app::Clock;
    ///
    /// let mut clock = Clock::new(Some(Duration::from_millis(25)));
    /// let mut steps = Vec::new();
    /// for _ in 0..4 {
    ///     clock.tick(); // what the runner does before each frame
    ///     steps.push(clock.fixed_steps(Duration::from_millis(10)).collect::<Vec<u64>>());
    /// }
    /// // Frames end at 25, 50, 75 and 100 ms: steps end at 10, 20 | 30, 40, 50 | 60, 70 | 80, 90, 100.
    /// assert_eq!(steps, [vec![0, 1], vec![2, 3, 4], vec![5, 6], vec![7, 8, 9]]);
    /// ```
    pub fn fixed_steps(&self, step: Duration) -> FixedSteps {
        let step = step.as_nanos();
        if step == 0 {
            return FixedSteps { next: 0, end: 0 };
        }
        let ended = |t: Duration| (t.as_nanos() / step) as u64;
        let end = ended(self.time);
        let first = ended(self.time - self.delta);
        FixedSteps {
            next: first.max(end.saturating_sub(MAX_FIXED_STEPS)),
            end,
        }
    }
}

/// The fixed steps of one frame ([`Clock::fixed_steps`]): their indices, in order.
#[derive(Clone, Debug)]
pub struct FixedSteps {
    next: u64,
    end: u64,
}

impl Iterator for FixedSteps {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        (self.next < self.end).then(|| {
            self.next += 1;
            self.next - 1
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.end - self.next).unwrap_or(usize::MAX);
        (n, Some(n))
    }
}

impl ExactSizeIterator for FixedSteps {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_advances_by_its_delta() {
        let mut clock = Clock::new(Some(Duration::from_millis(20)));
        clock.tick();
        assert_eq!(
            (clock.frame(), clock.elapsed()),
            (0, Duration::from_millis(20))
        );
        assert!((clock.delta() - 0.02).abs() < 1e-6);
        clock.tick();
        clock.tick();
        assert_eq!(
            (clock.frame(), clock.elapsed()),
            (2, Duration::from_millis(60))
        );
        let mut still = Clock::new(Some(Duration::ZERO));
        still.tick();
        still.tick();
        assert_eq!((still.frame(), still.time(), still.delta()), (1, 0.0, 0.0));
        assert_eq!(still.fixed_steps(Duration::from_millis(1)).len(), 0);
    }

    #[test]
    fn the_wall_clock_moves_forward() {
        let mut clock = Clock::new(None);
        clock.tick();
        let first = clock.elapsed();
        std::thread::sleep(Duration::from_millis(5));
        clock.tick();
        assert!(clock.elapsed() >= first + Duration::from_millis(5));
        assert_eq!(clock.elapsed(), first + clock.delta_duration());
    }

    #[test]
    fn fixed_steps_come_once_each_and_at_most_the_cap_a_frame() {
        // Frames of 7 ms, steps of 5 ms: every step index once, in order.
        let mut clock = Clock::new(Some(Duration::from_millis(7)));
        let mut all = Vec::new();
        for _ in 0..100 {
            clock.tick();
            all.extend(clock.fixed_steps(Duration::from_millis(5)));
        }
        assert_eq!(all, (0..140).collect::<Vec<u64>>());
        // A 1 s frame with 10 ms steps: the latest MAX_FIXED_STEPS only.
        let mut slow = Clock::new(Some(Duration::from_secs(1)));
        slow.tick();
        let steps: Vec<u64> = slow.fixed_steps(Duration::from_millis(10)).collect();
        assert_eq!(steps, (100 - MAX_FIXED_STEPS..100).collect::<Vec<u64>>());
        assert_eq!(slow.fixed_steps(Duration::ZERO).count(), 0);
    }
}
