//! Time from the platform clock. Inside a Worker it advances only across I/O, which is enough for
//! timestamps, expiries and rate-limit windows.

pub fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

pub fn now_unix() -> u64 {
    now_ms() / 1000
}

/// ISO 8601 / RFC 3339 in UTC with milliseconds, as the API reports times.
pub fn iso_from_ms(ms: u64) -> String {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms as f64));
    date.to_iso_string().into()
}

pub fn now_iso() -> String {
    iso_from_ms(now_ms())
}
