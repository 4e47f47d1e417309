//! Requests to the user: input and auth, required and answered.

use super::*;

impl Store {
    pub(super) fn apply_input_required(&mut self, e: &InputRequired<'_>, meta: &EventMeta<'_>) {
        let at = self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, InputRequired::KIND) else {
            return;
        };
        if self.input_index.contains_key(e.input_id.as_ref()) {
            let msg = format!("input request {} was already made: ignored", e.input_id);
            self.diag(
                DiagCode::DuplicateRequest,
                Severity::Warning,
                msg,
                "$.inputId",
                Some(&e.task_id),
                meta,
                InputRequired::KIND,
            );
            return;
        }
        if !self.room_for_request(t, meta, InputRequired::KIND) {
            return;
        }
        let m = e.metadata.as_ref();
        let require_user = e.require_user.unwrap_or(false);
        let timeout = meta_num(m, "timeout");
        let req = InputRequest {
            id: e.input_id.to_string(),
            task_id: e.task_id.to_string(),
            context_id: e.context_id.to_string(),
            input_type: e.input_type,
            prompt: e.prompt.to_string(),
            require_user,
            routing: if require_user {
                Routing::User
            } else {
                Routing::Coordinator
            },
            schema: e.schema.as_ref().map(RawJson::from_value),
            options: e.options.as_ref().map(|o| {
                let mut s = String::from("[");
                for (i, v) in o.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    v.write(&mut s);
                }
                s.push(']');
                RawJson(s)
            }),
            tool_call: m.and_then(|m| m.get("toolCall")).map(RawJson::from_value),
            urgency: meta_str(m, "urgency"),
            timeout,
            requested_at: e.timestamp.to_string(),
            ..InputRequest::default()
        };
        let Some(slot) = self.touch(t) else { return };
        let i = slot.view.inputs.len();
        slot.view.inputs.push(req);
        self.input_index.insert(e.input_id.to_string(), (t, i));
        if let (Some(at), Some(secs)) = (at, timeout) {
            self.add_deadline(at.saturating_add((secs * 1000.0) as i64), t, false, i);
        }
    }

    /// `false` (reported once) when task `t` already keeps `max_requests_per_task` requests.
    pub(super) fn room_for_request(&mut self, t: usize, meta: &EventMeta<'_>, kind: &str) -> bool {
        let max = self.limits.max_requests_per_task;
        let held = self
            .tasks
            .get(t)
            .map_or(0, |s| s.view.inputs.len() + s.view.auths.len());
        if held < max {
            return true;
        }
        self.limit_once(
            t,
            |s| &mut s.requests_truncated,
            Severity::Error,
            |id| {
                format!(
                    "more than {max} input/auth requests for task {id}: further ones are ignored"
                )
            },
            "$",
            meta,
            kind,
        );
        false
    }

    /// `true` when requests of task `task_id` were refused by a limit (the task itself, or its
    /// requests): answers to unknown requests of that task are then ignored silently, the
    /// limit was reported once already.
    pub(super) fn refused_requests_of(&self, task_id: &str) -> bool {
        match self.task_index.get(task_id) {
            None => self.task_limit_reported,
            Some(&t) => self.tasks.get(t).is_some_and(|s| s.requests_truncated),
        }
    }

    pub(super) fn apply_input_received(&mut self, e: &InputReceived<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let found = self.input_index.get(e.input_id.as_ref()).copied();
        if found.is_none() && self.refused_requests_of(&e.task_id) {
            return;
        }
        let state = found
            .and_then(|(t, i)| self.tasks.get(t)?.view.inputs.get(i))
            .map(|r| r.state);
        let Some((t, i)) = found.filter(|_| state != Some(RequestState::Answered)) else {
            let why = if found.is_some() {
                "was already answered"
            } else {
                "has no open input-required"
            };
            let msg = format!("input-received for {} which {why}", e.input_id);
            self.diag(
                DiagCode::InputNotOpen,
                Severity::Warning,
                msg,
                "$.inputId",
                Some(&e.task_id),
                meta,
                InputReceived::KIND,
            );
            return;
        };
        let Some(slot) = self.touch(t) else { return };
        let Some(req) = slot.view.inputs.get_mut(i) else {
            return;
        };
        req.state = RequestState::Answered;
        req.sending = false;
        self.answered_at.insert(
            e.input_id.to_string(),
            crate::state::dedupe::hash_of(&e.timestamp),
        );
        let Some(req) = self.tasks.get_mut(t).and_then(|s| s.view.inputs.get_mut(i)) else {
            return;
        };
        req.provided_by = Some(e.provided_by);
        req.user_id = e.user_id.as_deref().map(str::to_owned);
        req.agent_id = e.agent_id.as_deref().map(str::to_owned);
        self.drop_deadline(t, false, i);
    }

    pub(super) fn apply_auth_required(&mut self, e: &AuthRequired<'_>, meta: &EventMeta<'_>) {
        let at = self.observe_time(&e.timestamp, meta);
        let Some(t) = self.task_slot(&e.task_id, &e.context_id, meta, AuthRequired::KIND) else {
            return;
        };
        if self.auth_index.contains_key(e.auth_id.as_ref()) {
            let msg = format!("auth request {} was already made: ignored", e.auth_id);
            self.diag(
                DiagCode::DuplicateRequest,
                Severity::Warning,
                msg,
                "$.authId",
                Some(&e.task_id),
                meta,
                AuthRequired::KIND,
            );
            return;
        }
        if !self.room_for_request(t, meta, AuthRequired::KIND) {
            return;
        }
        let expires_in = meta_num(e.metadata.as_ref(), "expiresIn");
        let req = AuthRequest {
            id: e.auth_id.to_string(),
            task_id: e.task_id.to_string(),
            context_id: e.context_id.to_string(),
            auth_type: e.auth_type,
            provider: e.provider.as_deref().map(str::to_owned),
            scopes: e.scopes.iter().flatten().map(|s| s.to_string()).collect(),
            prompt: e.prompt.to_string(),
            auth_url: e.auth_url.as_deref().map(str::to_owned),
            url_safe: e.auth_url.as_deref().is_some_and(url::is_safe_to_open),
            expires_in,
            requested_at: e.timestamp.to_string(),
            ..AuthRequest::default()
        };
        let Some(slot) = self.touch(t) else { return };
        let i = slot.view.auths.len();
        slot.view.auths.push(req);
        self.auth_index.insert(e.auth_id.to_string(), (t, i));
        if let (Some(at), Some(secs)) = (at, expires_in) {
            self.add_deadline(at.saturating_add((secs * 1000.0) as i64), t, true, i);
        }
    }

    pub(super) fn apply_auth_completed(&mut self, e: &AuthCompleted<'_>, meta: &EventMeta<'_>) {
        self.observe_time(&e.timestamp, meta);
        let found = self.auth_index.get(e.auth_id.as_ref()).copied();
        if found.is_none() && self.refused_requests_of(&e.task_id) {
            return;
        }
        let state = found
            .and_then(|(t, i)| self.tasks.get(t)?.view.auths.get(i))
            .map(|r| r.state);
        let Some((t, i)) = found.filter(|_| state != Some(RequestState::Answered)) else {
            let why = if found.is_some() {
                "was already completed"
            } else {
                "has no open auth-required"
            };
            let msg = format!("auth-completed for {} which {why}", e.auth_id);
            self.diag(
                DiagCode::AuthNotOpen,
                Severity::Warning,
                msg,
                "$.authId",
                Some(&e.task_id),
                meta,
                AuthCompleted::KIND,
            );
            return;
        };
        let Some(slot) = self.touch(t) else { return };
        let Some(req) = slot.view.auths.get_mut(i) else {
            return;
        };
        req.state = RequestState::Answered;
        req.sending = false;
        self.answered_at.insert(
            e.auth_id.to_string(),
            crate::state::dedupe::hash_of(&e.timestamp),
        );
        let Some(req) = self.tasks.get_mut(t).and_then(|s| s.view.auths.get_mut(i)) else {
            return;
        };
        req.user_id = Some(e.user_id.to_string());
        req.expires_at = meta_str(e.metadata.as_ref(), "expiresAt");
        self.drop_deadline(t, true, i);
    }
}
