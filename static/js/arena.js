// An arena's page: its standings and games come over the socket (arenas/consumers.py), and
// again after a reconnect (data-resync, static/js/live_socket.js); the moment the socket says
// this person's table is ready, the page goes there. Its clocks: static/js/counted_time.js.
window.liveSocket.follow("arena-table");
