//! The two assistant stream formats (AI SDK v4 data stream, AI SDK v5+ UI message stream).
