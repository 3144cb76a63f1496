// The example's own routing: "sticky_user", a rule that keeps each user on one route, and
// "session_counter", a worker that counts each user's messages and answers quota questions.
#pragma once

namespace sessions {

/// Registers both with routesim (call once, before loading scenarios).
void register_all();

} // namespace sessions
