//! The server: its protocols over TCP and the web board in a real browser (the load test is a
//! crate of its own, `tests/server_load.rs`, so that it counts only its own threads).

#[path = "../support/netclient.rs"]
mod netclient;

mod server;
mod web_browser;
