//! OBF test positions (stub).
