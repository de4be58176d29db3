//! Info (stub).
use super::Image;
#[derive(Debug, serde::Serialize)]
pub struct Info {}
pub fn info(_image: &Image) -> Info {
    Info {}
}
pub fn render_text(_i: &Info) -> String {
    String::new()
}
