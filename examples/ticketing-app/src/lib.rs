//! The conference-ticketing example (`examples/ticketing/model.json`): its Cosmos DB
//! document types and data access, generated at build time by `build.rs`.
//!
//! An order holds its tickets (member documents in the order's partition), each
//! ticket's `code` unique across every order; an attendee's `email` is unique. Both
//! are kept by claim documents in `UniqueClaims`, which the generated repositories
//! take before their transactional batch and release after it. Its tests use only
//! generated calls, as an application would.

include!(concat!(env!("OUT_DIR"), "/cosmap.rs"));
include!(concat!(env!("OUT_DIR"), "/cosmap_data.rs"));
