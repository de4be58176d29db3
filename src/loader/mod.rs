//! Loaders: bytes to an [`Image`]. Filled in by the loader work.
