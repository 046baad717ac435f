//! Search over a published site: build once at publish time, query from the isolate cache.
