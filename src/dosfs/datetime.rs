//! DOS packed dates and times, to and from host times.

use super::{Duration, SystemTime, UNIX_EPOCH};

/// DOS packed (time, date) of a host time, in UTC, clamped to 1980-2107.
pub fn dos_datetime(t: SystemTime) -> (u16, u16) {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs().min(i64::MAX as u64) as i64)
        .unwrap_or(0);
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    let (y, m, d) = civil_from_days(days);
    if y < 1980 {
        return (0, (1 << 5) | 1);
    }
    if y > 2107 {
        return ((23 << 11) | (59 << 5) | 29, (127 << 9) | (12 << 5) | 31);
    }
    let time = ((rem / 3600) << 11) | (((rem / 60) % 60) << 5) | ((rem % 60) / 2);
    let date = ((y - 1980) << 9) | (m << 5) | d;
    (time as u16, date as u16)
}

/// The host time of a DOS packed (time, date), read as UTC. Out-of-range
/// fields are taken arithmetically, never refused.
pub fn system_time(time: u16, date: u16) -> SystemTime {
    let y = 1980 + i64::from(date >> 9);
    let m = i64::from((date >> 5) & 15).clamp(1, 12);
    let d = i64::from(date & 31).max(1);
    let days = days_from_civil(y, m, d);
    let secs = days * 86400
        + i64::from(time >> 11) * 3600
        + i64::from((time >> 5) & 63) * 60
        + i64::from(time & 31) * 2;
    UNIX_EPOCH + Duration::from_secs(secs.max(0) as u64)
}

pub(super) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

pub(super) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}
