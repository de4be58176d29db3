//! Date and time for INT 21h AH=2Ah/2Ch and INT 1Ah: the host's clock (UTC)
//! or a fixed instant for reproducible runs (`--clock`).

use std::time::{SystemTime, UNIX_EPOCH};

/// A broken-down date and time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTime {
    pub year: u16,
    pub month: u8,
    pub day: u8,
    /// 0 = Sunday.
    pub weekday: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub hundredths: u8,
}

/// Days since 1970-01-01 to a civil date (proleptic Gregorian).
fn civil(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

impl DateTime {
    /// From seconds since the Unix epoch (UTC).
    pub fn from_unix(secs: i64, hundredths: u8) -> DateTime {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let (y, m, d) = civil(days);
        DateTime {
            year: y.clamp(1980, 2099) as u16,
            month: m,
            day: d,
            weekday: (days + 4).rem_euclid(7) as u8,
            hour: (rem / 3600) as u8,
            minute: (rem / 60 % 60) as u8,
            second: (rem % 60) as u8,
            hundredths,
        }
    }

    /// Parse `YYYY-MM-DD HH:MM:SS` (or with `T`).
    pub fn parse(s: &str) -> Result<DateTime, String> {
        let bad = || format!("'{s}': expected YYYY-MM-DD HH:MM:SS");
        let (date, time) = s.split_once([' ', 'T']).ok_or_else(bad)?;
        let d: Vec<i64> = date
            .split('-')
            .map(|x| x.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        let t: Vec<i64> = time
            .split(':')
            .map(|x| x.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        if d.len() != 3
            || t.len() != 3
            || !(1980..=2099).contains(&d[0])
            || !(1..=12).contains(&d[1])
            || !(1..=31).contains(&d[2])
            || !(0..24).contains(&t[0])
            || !(0..60).contains(&t[1])
            || !(0..60).contains(&t[2])
        {
            return Err(bad());
        }
        // Days from the civil date (inverse of `civil`).
        let (y, m) = if d[1] <= 2 {
            (d[0] - 1, d[1] + 9)
        } else {
            (d[0], d[1] - 3)
        };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * m + 2) / 5 + d[2] - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        let days = era * 146_097 + doe - 719_468;
        Ok(DateTime::from_unix(
            days * 86_400 + t[0] * 3600 + t[1] * 60 + t[2],
            0,
        ))
    }
}

/// Where the time comes from.
#[derive(Debug, Clone, Copy, Default)]
pub enum Clock {
    /// The host's clock, in UTC.
    #[default]
    Host,
    /// A fixed instant.
    Fixed(DateTime),
}

impl Clock {
    /// The current date and time.
    pub fn now(&self) -> DateTime {
        match self {
            Clock::Fixed(t) => *t,
            Clock::Host => {
                let d = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .unwrap_or_default();
                DateTime::from_unix(d.as_secs() as i64, (d.subsec_millis() / 10) as u8)
            }
        }
    }

    /// BIOS ticks since midnight (18.2065 per second).
    pub fn ticks(&self) -> u32 {
        let t = self.now();
        let secs = u64::from(t.hour) * 3600 + u64::from(t.minute) * 60 + u64::from(t.second);
        let centis = secs * 100 + u64::from(t.hundredths);
        (centis * 1_193_182 / 6_553_600) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        let t = DateTime::parse("1992-04-06 12:34:56").unwrap();
        assert_eq!((t.year, t.month, t.day, t.weekday), (1992, 4, 6, 1)); // Windows 3.1 shipped on a Monday
        assert_eq!((t.hour, t.minute, t.second), (12, 34, 56));
        let t = DateTime::parse("2000-02-29T00:00:00").unwrap();
        assert_eq!((t.year, t.month, t.day, t.weekday), (2000, 2, 29, 2));
        assert!(DateTime::parse("1992-13-01 00:00:00").is_err());
        assert!(DateTime::parse("nonsense").is_err());
        assert_eq!(
            Clock::Fixed(DateTime::parse("1992-04-06 00:00:00").unwrap()).ticks(),
            0
        );
        assert_eq!(
            Clock::Fixed(DateTime::parse("1992-04-06 01:00:00").unwrap()).ticks(),
            65543
        );
    }
}
