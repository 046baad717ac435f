//! Assistant request rules (v1 and v2) into one normalized request.
