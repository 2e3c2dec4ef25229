// The rated queue's page: how many wait comes over the socket (pairing/consumers.py), and again
// after a reconnect (data-resync, static/js/live_socket.js); the moment the socket says the
// table is ready, the page goes there. The time waited: static/js/counted_time.js.
window.liveSocket.follow("queue-table");
