//! Ordinal names (stub).
pub fn ordinal_name(_module: &str, _ordinal: u16) -> Option<&'static str> {
    None
}
pub fn ordinal_of(_module: &str, _name: &str) -> Option<u16> {
    None
}
