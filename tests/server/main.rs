//! The server: its protocols over TCP, a load test and the web board in a real browser.

#[path = "../support/netclient.rs"]
mod netclient;

mod server;
mod server_load;
mod web_browser;
