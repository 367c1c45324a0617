// Fetch wrapper: JSON in and out; every failure becomes an ApiError carrying the server's code.
export class ApiError extends Error {
  constructor(status, code, message, reason) {
    super(message);
    this.status = status;
    this.code = code;
    this.reason = reason;  // which rule a refused name broke (invalid_name)
  }
}

/** `headers`: more request headers (X-Player-Token). */
export async function api(path, { method = "GET", body, token, raw, headers: more } = {}) {
  const headers = { Accept: "application/json", ...more };
  if (body !== undefined || raw !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    const payload = raw !== undefined ? raw : body === undefined ? undefined : JSON.stringify(body);
    response = await fetch(path, { method, headers, body: payload });
  } catch (err) {
    throw new ApiError(0, "network", String(err));
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data.code || "error", data.message || response.statusText, data.reason);
  return data;
}
