//! The day range of a report: `from` and `to` are UTC dates (`YYYY-MM-DD`, both included).
//! Without them the report covers the 30 days up to today; a range is at most 366 days long.

use crate::http::validate::FieldError;
use crate::security::presign::civil_from_days;

pub const DEFAULT_DAYS: i64 = 30;
pub const MAX_DAYS: i64 = 366;
const DAY_MS: i64 = 86_400_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayRange {
    /// Days since 1970-01-01, both included.
    pub first: i64,
    pub last: i64,
}

impl DayRange {
    /// `from`/`to` as given in the query string (`None` when absent); `today` in days since the epoch.
    pub fn parse(from: Option<&str>, to: Option<&str>, today: i64) -> Result<DayRange, FieldError> {
        let field = |name: &str, value: Option<&str>| -> Result<Option<i64>, FieldError> {
            match value {
                None => Ok(None),
                Some(text) => parse_day(text).map(Some).ok_or_else(|| FieldError {
                    path: name.into(),
                    rule: "must be a date in the form YYYY-MM-DD".into(),
                }),
            }
        };
        let from = field("from", from)?;
        let to = field("to", to)?;
        let (first, last) = match (from, to) {
            (Some(f), Some(t)) => (f, t),
            (Some(f), None) => (f, (f + DEFAULT_DAYS - 1).min(today.max(f))),
            (None, Some(t)) => (t - DEFAULT_DAYS + 1, t),
            (None, None) => (today - DEFAULT_DAYS + 1, today),
        };
        if last < first {
            return Err(FieldError {
                path: "to".into(),
                rule: "must not be before from".into(),
            });
        }
        if last - first + 1 > MAX_DAYS {
            return Err(FieldError {
                path: "to".into(),
                rule: format!("must be at most {MAX_DAYS} days after from"),
            });
        }
        Ok(DayRange { first, last })
    }

    /// Unix milliseconds: the first instant of `first`, and the first instant after `last`.
    pub fn bounds_ms(&self) -> (i64, i64) {
        (self.first * DAY_MS, (self.last + 1) * DAY_MS)
    }

    pub fn days(&self) -> impl Iterator<Item = String> {
        (self.first..=self.last).map(day_string)
    }

    /// `YYYY-MM-DD` of the first and the last day.
    pub fn first_day(&self) -> String {
        day_string(self.first)
    }

    pub fn last_day(&self) -> String {
        day_string(self.last)
    }
}

/// `YYYY-MM-DD` of a unix-milliseconds instant (UTC).
pub fn day_of_ms(ms: u64) -> String {
    day_string((ms / DAY_MS as u64) as i64)
}

/// RFC 3339 UTC with milliseconds, as the API reports times.
pub fn iso_of_ms(ms: u64) -> String {
    let secs = ms / 1000;
    let day = day_string((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!(
        "{day}T{:02}:{:02}:{:02}.{:03}Z",
        s / 3600,
        s / 60 % 60,
        s % 60,
        ms % 1000
    )
}

pub fn day_string(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since the epoch of a strict `YYYY-MM-DD` calendar date (years 1970–9999).
pub fn parse_day(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let number = |s: &[u8]| -> Option<i64> {
        s.iter().try_fold(0i64, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
        })
    };
    let (y, m, d) = (number(&b[0..4])?, number(&b[5..7])?, number(&b[8..10])?);
    if y < 1970 || !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Howard Hinnant's `days_from_civil`, the inverse of [`civil_from_days`].
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_round_trip_through_the_calendar() {
        for days in [0, 59, 60, 365, 10_956, 11_016, 20_000, 2_932_896] {
            assert_eq!(parse_day(&day_string(days)), Some(days), "{days}");
        }
        assert_eq!(parse_day("2024-02-29"), Some(19_782));
        assert_eq!(day_of_ms(19_782 * 86_400_000 + 5), "2024-02-29");
    }

    #[test]
    fn malformed_dates_name_their_field() {
        for bad in [
            "2024-02-30",
            "2023-02-29",
            "2024-13-01",
            "24-01-01",
            "2024-1-01",
            "2024-01-01T00:00:00Z",
            "",
            "1969-12-31",
        ] {
            let err = DayRange::parse(Some(bad), None, 20_000).unwrap_err();
            assert_eq!(err.path, "from", "{bad}");
            let err = DayRange::parse(None, Some(bad), 20_000).unwrap_err();
            assert_eq!(err.path, "to", "{bad}");
        }
    }

    #[test]
    fn ranges_default_to_thirty_days_and_are_bounded() {
        let r = DayRange::parse(None, None, 100).unwrap();
        assert_eq!((r.first, r.last), (71, 100));
        assert_eq!(r.days().count(), 30);
        let r = DayRange::parse(Some("1970-01-05"), Some("1970-01-05"), 100).unwrap();
        assert_eq!(r.bounds_ms(), (4 * 86_400_000, 5 * 86_400_000));
        assert_eq!(
            DayRange::parse(Some("1970-01-05"), Some("1970-01-04"), 100)
                .unwrap_err()
                .to_string(),
            "to: must not be before from"
        );
        assert!(DayRange::parse(Some("2021-01-01"), Some("2022-01-01"), 100).is_ok());
        assert_eq!(
            DayRange::parse(Some("2021-01-01"), Some("2022-01-02"), 100)
                .unwrap_err()
                .path,
            "to"
        );
    }
}
