package auth_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// scenario is one API call and what its answer must and must not contain.
type scenario struct {
	name   string
	method string
	path   string
	// as logs in as this user (through POST /token) and sends the access
	// token as a bearer header.
	as      string
	headers map[string]string
	body    string
	// prepare computes what depends on the running env: it may change the
	// path, headers and body.
	prepare func(t *testing.T, e *env, s *scenario)
	status  int
	want    []string
	notWant []string
}

const form = "application/x-www-form-urlencoded"

func formHeaders() map[string]string { return map[string]string{"Content-Type": form} }

// withToken replaces the bearer header by one computed from a fresh login
// of the member.
func withToken(fn func(t *testing.T, e *env, tk tokens) string) func(*testing.T, *env, *scenario) {
	return func(t *testing.T, e *env, s *scenario) {
		s.headers = map[string]string{"Authorization": "Bearer " + fn(t, e, e.login(t, memberEmail))}
	}
}

func withRefreshBody(hash string) func(*testing.T, *env, *scenario) {
	return func(t *testing.T, e *env, s *scenario) {
		tk := e.login(t, memberEmail)
		s.body = `{"user_browser_hash":"` + hash + `","user_refresh_token":"` + tk.refresh + `"}`
	}
}

func scenarios() []scenario {
	locked := []string{`"code":"account_locked"`, "Your account is locked"}
	invalid := []string{`{"detail":"Incorrect email or password."}`}
	tokenInvalid := []string{"Your session is invalid or has expired"}
	secretFields := []string{"user_password", "$argon2id"}
	return []scenario{
		// POST /token
		{name: "login form", method: "POST", path: "/token", headers: formHeaders(),
			body:   "username=" + memberEmail + "&password=" + pw + "&user_browser_hash=" + browser,
			status: 200, want: []string{`"access_token":"`, `"refresh_token":"`, `"token_type":"bearer"`, `"expires_in":1800`}},
		{name: "login json, address in other case", method: "POST", path: "/token",
			body:   `{"username":"  MEMBER@Portfolio.test ","password":"` + pw + `","user_browser_hash":"` + browser + `"}`,
			status: 200, want: []string{`"access_token"`}},
		{name: "login unknown user", method: "POST", path: "/token", headers: formHeaders(),
			body: "username=nobody@portfolio.test&password=" + pw + "&user_browser_hash=x", status: 400, want: invalid},
		{name: "login wrong password", method: "POST", path: "/token", headers: formHeaders(),
			body: "username=wrong@portfolio.test&password=nope-nope-1&user_browser_hash=x", status: 400, want: invalid},
		{name: "login no password set", method: "POST", path: "/token", headers: formHeaders(),
			body: "username=nopassword@portfolio.test&password=" + pw + "&user_browser_hash=x", status: 400, want: invalid},
		{name: "login wrong password in German", method: "POST", path: "/token",
			headers: map[string]string{"Content-Type": form, "Accept-Language": "de-DE,de;q=0.9"},
			body:    "username=nobody@portfolio.test&password=x&user_browser_hash=x", status: 400,
			want: []string{"E-Mail-Adresse oder Passwort ist falsch."}},
		{name: "login locked with right password", method: "POST", path: "/token", headers: formHeaders(),
			body: "username=locked@portfolio.test&password=" + pw + "&user_browser_hash=x", status: 403, want: locked, notWant: []string{"access_token"}},
		{name: "login must change password", method: "POST", path: "/token", headers: formHeaders(),
			body: "username=mustchange@portfolio.test&password=" + pw + "&user_browser_hash=x", status: 403,
			want: []string{`"code":"password_change_required"`}, notWant: []string{"access_token"}},
		{name: "login unverified", method: "POST", path: "/token", headers: formHeaders(),
			body: "username=unverified@portfolio.test&password=" + pw + "&user_browser_hash=x", status: 403,
			want: []string{`"code":"not_verified"`}, notWant: []string{"access_token"}},
		{name: "login missing fields", method: "POST", path: "/token", headers: formHeaders(), body: "username=", status: 422,
			want: []string{`"loc":["body","username"]`, `"loc":["body","password"]`, `"loc":["body","user_browser_hash"]`, `"type":"missing"`, `"msg":"Email is required"`}},
		{name: "login empty json", method: "POST", path: "/token", body: `{}`, status: 422, want: []string{`"type":"missing"`}},
		{name: "login malformed json", method: "POST", path: "/token", body: `{"username":`, status: 400, want: []string{"not valid JSON"}},
		{name: "login malformed form", method: "POST", path: "/token", headers: formHeaders(), body: "username=%zz&password=x", status: 400,
			want: []string{"The form data is not valid"}},
		{name: "login wrong content type", method: "POST", path: "/token", headers: map[string]string{"Content-Type": "text/plain"},
			body: "username=a", status: 415, want: []string{"Unsupported content type"}},
		{name: "login oversized body", method: "POST", path: "/token", headers: formHeaders(),
			body: "username=" + strings.Repeat("a", maxBody+10), status: 413, want: []string{"too large"}},
		{name: "login too long user name", method: "POST", path: "/token", headers: formHeaders(),
			body: "username=" + strings.Repeat("a", 300) + "&password=x&user_browser_hash=x", status: 422, want: []string{"maximum 254"}},
		{name: "login GET not allowed", method: "GET", path: "/token", status: 405},

		// POST /auth/refresh/token
		{name: "refresh", method: "POST", path: "/auth/refresh/token", prepare: withRefreshBody(browser), status: 200,
			want: []string{`"user_token":"`, `"user_refresh_token":"`, `"expires_in":1800`}},
		{name: "refresh other browser", method: "POST", path: "/auth/refresh/token", prepare: withRefreshBody(otherHash), status: 401,
			want: []string{"Your session can no longer be renewed"}, notWant: []string{"user_token"}},
		{name: "refresh unknown token", method: "POST", path: "/auth/refresh/token",
			body: `{"user_browser_hash":"` + browser + `","user_refresh_token":"not-a-token"}`, status: 401, want: []string{"can no longer be renewed"}},
		{name: "refresh with access token", method: "POST", path: "/auth/refresh/token", status: 401,
			prepare: func(t *testing.T, e *env, s *scenario) {
				s.body = `{"user_browser_hash":"` + browser + `","user_refresh_token":"` + e.login(t, memberEmail).access + `"}`
			}},
		{name: "refresh missing fields", method: "POST", path: "/auth/refresh/token", body: `{}`, status: 422,
			want: []string{`"loc":["body","user_browser_hash"]`, `"loc":["body","user_refresh_token"]`}},
		{name: "refresh unknown field", method: "POST", path: "/auth/refresh/token", body: `{"refresh":"x"}`, status: 400, want: []string{"Unknown field: refresh"}},
		{name: "refresh oversized body", method: "POST", path: "/auth/refresh/token", status: 413,
			body: `{"user_browser_hash":"` + strings.Repeat("b", maxBody) + `"}`, want: []string{"too large"}},
		{name: "refresh form refused", method: "POST", path: "/auth/refresh/token", headers: formHeaders(), body: "a=b", status: 415},
		{name: "refresh wrong type", method: "POST", path: "/auth/refresh/token", body: `{"user_browser_hash":1,"user_refresh_token":"x"}`, status: 422},

		// Access tokens on a private route.
		{name: "no token", method: "GET", path: "/user/", status: 401, want: []string{"Not authenticated."}},
		{name: "garbage token", method: "GET", path: "/user/", headers: map[string]string{"Authorization": "Bearer abc.def.ghi"}, status: 401, want: tokenInvalid},
		{name: "basic scheme", method: "GET", path: "/user/", headers: map[string]string{"Authorization": "Basic YTpi"}, status: 401},
		{name: "token signed with another secret", method: "GET", path: "/user/", status: 401, want: tokenInvalid,
			prepare: withToken(func(t *testing.T, e *env, tk tokens) string {
				return signed(t, jwt.SigningMethodHS256, []byte("another-secret-another-secret-!!"), claimsFor(t, e, tk))
			})},
		{name: "alg none", method: "GET", path: "/user/", status: 401, want: tokenInvalid,
			prepare: withToken(func(t *testing.T, e *env, tk tokens) string {
				return signed(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claimsFor(t, e, tk))
			})},
		{name: "HS512 with the right secret", method: "GET", path: "/user/", status: 401, want: tokenInvalid,
			prepare: withToken(func(t *testing.T, e *env, tk tokens) string {
				return signed(t, jwt.SigningMethodHS512, testSecret, claimsFor(t, e, tk))
			})},
		{name: "wrong type claim", method: "GET", path: "/user/", status: 401, want: tokenInvalid,
			prepare: withToken(func(t *testing.T, e *env, tk tokens) string {
				c := claimsFor(t, e, tk)
				c["typ"] = "refresh"
				return signed(t, jwt.SigningMethodHS256, testSecret, c)
			})},
		{name: "wrong issuer", method: "GET", path: "/user/", status: 401, want: tokenInvalid,
			prepare: withToken(func(t *testing.T, e *env, tk tokens) string {
				c := claimsFor(t, e, tk)
				c["iss"] = "elsewhere"
				return signed(t, jwt.SigningMethodHS256, testSecret, c)
			})},
		{name: "no expiry", method: "GET", path: "/user/", status: 401, want: tokenInvalid,
			prepare: withToken(func(t *testing.T, e *env, tk tokens) string {
				c := claimsFor(t, e, tk)
				delete(c, "exp")
				return signed(t, jwt.SigningMethodHS256, testSecret, c)
			})},
		{name: "other user's id in a real session", method: "GET", path: "/user/", status: 401, want: tokenInvalid,
			prepare: withToken(func(t *testing.T, e *env, tk tokens) string {
				c := claimsFor(t, e, tk)
				c["sub"] = "1"
				return signed(t, jwt.SigningMethodHS256, testSecret, c)
			})},
		{name: "unknown session", method: "GET", path: "/user/", status: 401, want: tokenInvalid,
			prepare: withToken(func(t *testing.T, e *env, tk tokens) string {
				c := claimsFor(t, e, tk)
				c["sid"] = "0123456789abcdef0123456789abcdef"
				return signed(t, jwt.SigningMethodHS256, testSecret, c)
			})},
		{name: "refresh token as access token", method: "GET", path: "/user/", status: 401, want: tokenInvalid,
			prepare: withToken(func(_ *testing.T, _ *env, tk tokens) string { return tk.refresh })},
		{name: "token in query for GET", method: "GET", status: 200, want: []string{`"user_email":"` + memberEmail + `"`},
			prepare: func(t *testing.T, e *env, s *scenario) {
				s.path = "/user/?authorization=" + e.login(t, memberEmail).access
			}},
		{name: "token in query, capitalised, with scheme", method: "GET", status: 200, want: []string{`"password":"`},
			prepare: func(t *testing.T, e *env, s *scenario) {
				s.path = "/users/generate/password/?Authorization=Bearer%20" + e.login(t, memberEmail).access
			}},
		{name: "token in query for POST refused", method: "POST", status: 401, want: []string{"Not authenticated."},
			prepare: func(t *testing.T, e *env, s *scenario) {
				s.path = "/logout?authorization=" + e.login(t, memberEmail).access
			}},

		// GET /user/
		{name: "me as member", method: "GET", path: "/user/", as: memberEmail, status: 200,
			want: []string{`"user_email":"member@portfolio.test"`, `"user_abbreviation":"MM"`, `"user_language":"de"`,
				`"usertype":{"usertype_id":1,"usertype_name":"INTERN","usertype_external":0}`,
				`"roles":[{"role_id":2,"role_name":"Team member","role_code":"team_member","role_menu":"member_menu","tablegroups":[{"tablegroup_id":1,"tablegroup_name":"tickets","crud_c":1,"crud_r":1,"crud_u":0,"crud_d":0}]}]`,
				`"partnercompany":[]`, `"company":null`, `"customergroup":null`, `"partnergroup":null`,
				`"team_id":[7]`, `"teams":[{"team_id":7,"team_name":"FM","team_type":"extern_client"}]`,
				`"configs":[{"config_key":"menu","config_val":[{"access_name":"member_menu","menus":[{"name":"ticket","value":["read"]}]}]}]`,
				`"tablegroups":[{"tablegroup_id":1,"table_name":["board","ticket"]}]`, `"users_tablegroups":[]`,
				`{"action":"read","subject":"Auth"}`, `{"action":"create","subject":"ticket"}`, `{"action":"read","subject":"menu_ticket"}`,
				`"user_last_login_time":"`},
			notWant: append([]string{`"action":"manage"`, `"user_is_director":1`}, secretFields...)},
		{name: "me as external", method: "GET", path: "/user/", as: extEmail, status: 200,
			want: []string{`"usertype_external":1`, `"user_is_director":1`,
				`"company":{"company_id":1,"company_name":"Acme Stores","customergroup_id":1}`,
				`"customergroup":{"customergroup_id":1,"customergroup_name":"Retail group"}`,
				`"partnercompany":[{"partnercompany_id":1,"partnercompany_name":"Clean & Co"}]`,
				`"menus":[{"name":"ticket","value":["read"]}]`},
			notWant: []string{`"name":"payment"`, "menu_payment"}},
		{name: "me as admin", method: "GET", path: "/user/", as: adminEmail, status: 200,
			want: []string{`"rules":[{"action":"manage","subject":"all"}]`, `"role_code":"admin"`}},

		// PUT /user/
		{name: "profile update", method: "PUT", path: "/user/", as: "flow2@portfolio.test", status: 200,
			body: `{"user_firstname":" Fiona ","user_lastname":"Flow","user_fix_phonenumber":"+49 30 1234-56","user_fax_phonenumber":"","user_mobile":"0170 123456","user_language":"fr"}`,
			want: []string{`"user_firstname":"Fiona"`, `"user_abbreviation":"FF"`, `"user_fix_phonenumber":"+49 30 1234-56"`,
				`"user_fax_phonenumber":null`, `"user_mobile":"0170 123456"`, `"user_language":"fr"`, `"rules":[`}},
		{name: "profile unknown field", method: "PUT", path: "/user/", as: memberEmail, status: 400,
			body: `{"user_firstname":"A","user_lastname":"B","user_email":"x@y.z"}`, want: []string{"Unknown field: user_email"}},
		{name: "profile missing names", method: "PUT", path: "/user/", as: memberEmail, status: 422, body: `{"user_firstname":"  "}`,
			want: []string{`"loc":["body","user_firstname"]`, `"loc":["body","user_lastname"]`}},
		{name: "profile bad values", method: "PUT", path: "/user/", as: memberEmail, status: 422,
			body: `{"user_firstname":"` + strings.Repeat("x", 101) + `","user_lastname":"B","user_mobile":"call me","user_language":"es"}`,
			want: []string{"maximum 100 characters", `"loc":["body","user_mobile"]`, `"loc":["body","user_language"]`, "en, de, fr"}},
		{name: "profile not json", method: "PUT", path: "/user/", as: memberEmail, status: 415, headers: formHeaders(), body: "a=b"},
		{name: "profile anonymous", method: "PUT", path: "/user/", status: 401, body: `{}`},

		// PUT /user/password
		{name: "password wrong old", method: "PUT", path: "/user/password", as: memberEmail, status: 422,
			body: `{"old_password":"not-it-123","new_password":"Another-pass-42"}`, want: []string{`"loc":["body","old_password"]`, "current password is not correct"}},
		{name: "password weak new", method: "PUT", path: "/user/password", as: memberEmail, status: 422,
			body: `{"old_password":"` + pw + `","new_password":"short1"}`, want: []string{`"loc":["body","new_password"]`, "at least 10 characters"}},
		{name: "password letters only", method: "PUT", path: "/user/password", as: memberEmail, status: 422,
			body: `{"old_password":"` + pw + `","new_password":"abcdefghijkl"}`, want: []string{`"type":"password_weak"`}},
		{name: "password same", method: "PUT", path: "/user/password", as: memberEmail, status: 422,
			body: `{"old_password":"` + pw + `","new_password":"` + pw + `"}`, want: []string{"must differ"}},
		{name: "password missing", method: "PUT", path: "/user/password", as: memberEmail, status: 422, body: `{}`,
			want: []string{`"loc":["body","old_password"]`, `"loc":["body","new_password"]`}},
		{name: "password changed", method: "PUT", path: "/user/password", as: "pwchange@portfolio.test", status: 200,
			body: `{"old_password":"` + pw + `","new_password":"Another-pass-42"}`, want: []string{`{"detail":"Your password has been changed."}`}},

		// POST /auth/forgot-password
		{name: "forgot known", method: "POST", path: "/auth/forgot-password", body: `{"email":"flow@portfolio.test"}`, status: 200,
			want: []string{`{"detail":"If an account exists for this address, we have sent it a link to reset the password."}`}},
		{name: "forgot unknown", method: "POST", path: "/auth/forgot-password", body: `{"email":"ghost@portfolio.test"}`, status: 200,
			want: []string{`{"detail":"If an account exists for this address, we have sent it a link to reset the password."}`}},
		{name: "forgot missing", method: "POST", path: "/auth/forgot-password", body: `{}`, status: 422, want: []string{`"loc":["body","email"]`}},
		{name: "forgot not an address", method: "POST", path: "/auth/forgot-password", body: `{"email":"Ghost <g@x.test>"}`, status: 422,
			want: []string{`"type":"email"`}},

		// POST /auth/reset-password and /auth/verify
		{name: "reset bad link", method: "POST", path: "/auth/reset-password", body: `{"token":"nope","password":"Another-pass-42"}`, status: 400,
			want: []string{"This link is invalid, has expired or has already been used."}},
		{name: "reset weak password", method: "POST", path: "/auth/reset-password", body: `{"token":"nope","password":"weak"}`, status: 422,
			want: []string{`"type":"password_weak"`}},
		{name: "reset missing", method: "POST", path: "/auth/reset-password", body: `{}`, status: 422,
			want: []string{`"loc":["body","token"]`, `"loc":["body","password"]`}},
		{name: "verify bad link", method: "POST", path: "/auth/verify", body: `{"token":"nope"}`, status: 400, want: []string{"This link is invalid"}},
		{name: "verify missing token", method: "POST", path: "/auth/verify", body: `{"password":"Another-pass-42"}`, status: 422,
			want: []string{`"loc":["body","token"]`}},

		// POST /auth/change-password
		{name: "change at login", method: "POST", path: "/auth/change-password", status: 200,
			body: `{"username":"mustchange2@portfolio.test","old_password":"` + pw + `","new_password":"Another-pass-42"}`,
			want: []string{"Your password has been changed."}},
		{name: "change wrong old", method: "POST", path: "/auth/change-password", status: 400,
			body: `{"username":"wrong@portfolio.test","old_password":"nope-nope-1","new_password":"Another-pass-42"}`, want: invalid},
		{name: "change unknown user", method: "POST", path: "/auth/change-password", status: 400,
			body: `{"username":"ghost@portfolio.test","old_password":"nope-nope-1","new_password":"Another-pass-42"}`, want: invalid},
		{name: "change locked", method: "POST", path: "/auth/change-password", status: 403,
			body: `{"username":"locked@portfolio.test","old_password":"` + pw + `","new_password":"Another-pass-42"}`, want: locked},
		{name: "change weak", method: "POST", path: "/auth/change-password", status: 422,
			body: `{"username":"mustchange@portfolio.test","old_password":"` + pw + `","new_password":"weak"}`, want: []string{`"loc":["body","new_password"]`}},
		{name: "change same", method: "POST", path: "/auth/change-password", status: 422,
			body: `{"username":"mustchange@portfolio.test","old_password":"` + pw + `","new_password":"` + pw + `"}`, want: []string{"must differ"}},

		// POST /jwt/register
		{name: "register as member", method: "POST", path: "/jwt/register", as: memberEmail, status: 403,
			body: `{"user_email":"new@portfolio.test"}`, want: []string{`{"detail":"This action is not authorized"}`}},
		{name: "register anonymous", method: "POST", path: "/jwt/register", status: 401, body: `{}`},
		{name: "register", method: "POST", path: "/jwt/register", as: adminEmail, status: 201,
			body: `{"user_email":"New.User@portfolio.test","user_firstname":"New","user_lastname":"User","usertype_id":2,"role_id":3,` +
				`"team_ids":[7],"company_id":1,"user_language":"de"}`,
			want: []string{`"user_id":`, `"detail":"User Created"`}},
		{name: "register taken address", method: "POST", path: "/jwt/register", as: adminEmail, status: 409,
			body: `{"user_email":"MEMBER@portfolio.test","user_firstname":"A","user_lastname":"B","usertype_id":1,"role_id":2}`,
			want: []string{"A user with this email address already exists."}},
		{name: "register missing fields", method: "POST", path: "/jwt/register", as: adminEmail, status: 422, body: `{}`,
			want: []string{`"loc":["body","user_email"]`, `"loc":["body","user_firstname"]`, `"loc":["body","user_lastname"]`,
				`"loc":["body","usertype_id"]`, `"loc":["body","role_id"]`}},
		{name: "register unknown references", method: "POST", path: "/jwt/register", as: adminEmail, status: 422,
			body: `{"user_email":"x@portfolio.test","user_firstname":"A","user_lastname":"B","usertype_id":9,"role_id":2,"team_ids":[99],"company_id":98}`,
			want: []string{`"loc":["body","usertype_id"]`, `"loc":["body","team_ids"]`, `"loc":["body","company_id"]`, "does not exist"}},
		{name: "register unknown role", method: "POST", path: "/jwt/register", as: adminEmail, status: 422,
			body: `{"user_email":"x@portfolio.test","user_firstname":"A","user_lastname":"B","usertype_id":1,"role_id":99}`,
			want: []string{`"loc":["body","role_id"]`}},
		{name: "register bad values", method: "POST", path: "/jwt/register", as: adminEmail, status: 422,
			body: `{"user_email":"not an address","user_firstname":"A","user_lastname":"B","usertype_id":1,"role_id":2,"user_password":"weak","user_language":"xx"}`,
			want: []string{`"loc":["body","user_email"]`, `"loc":["body","user_password"]`, `"loc":["body","user_language"]`}},
		{name: "register group mismatch", method: "POST", path: "/jwt/register", as: adminEmail, status: 422,
			body: `{"user_email":"y@portfolio.test","user_firstname":"A","user_lastname":"B","usertype_id":2,"role_id":3,"company_id":1,"customergroup_id":2}`,
			want: []string{`"loc":["body","customergroup_id"]`}},
		{name: "register unknown field", method: "POST", path: "/jwt/register", as: adminEmail, status: 400, body: `{"user_locked":0}`,
			want: []string{"Unknown field: user_locked"}},

		// GET /users/generate/password/
		{name: "generate password", method: "GET", path: "/users/generate/password/", as: memberEmail, status: 200, want: []string{`{"password":"`}},
		{name: "generate password anonymous", method: "GET", path: "/users/generate/password/", status: 401},

		// POST /logout
		{name: "logout", method: "POST", path: "/logout", as: memberEmail, status: 204},
		{name: "logout with refresh token", method: "POST", path: "/logout", status: 204,
			prepare: func(t *testing.T, e *env, s *scenario) {
				tk := e.login(t, memberEmail)
				s.headers = tk.bearer()
				s.body = `{"user_refresh_token":"` + tk.refresh + `"}`
			}},
		{name: "logout malformed body", method: "POST", path: "/logout", as: memberEmail, body: `{"user_refresh_token":`, status: 400},
		{name: "logout anonymous", method: "POST", path: "/logout", status: 401},
	}
}

func TestAPIScenarios(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		for _, s := range scenarios() {
			t.Run(s.name, func(t *testing.T) { run(t, e, s) })
		}
	})
}

func run(t *testing.T, e *env, s scenario) {
	if s.prepare != nil {
		s.prepare(t, e, &s)
	}
	headers := map[string]string{}
	for k, v := range s.headers {
		headers[k] = v
	}
	if s.as != "" {
		headers["Authorization"] = "Bearer " + e.login(t, s.as).access
	}
	a := e.do(t, s.method, s.path, headers, s.body)
	if a.status != s.status {
		t.Fatalf("%s %s: status %d, want %d\n%s", s.method, s.path, a.status, s.status, a.body)
	}
	for _, w := range s.want {
		if !strings.Contains(a.body, w) {
			t.Errorf("answer lacks %s\n%s", w, a.body)
		}
	}
	for _, w := range s.notWant {
		if strings.Contains(a.body, w) {
			t.Errorf("answer contains %s\n%s", w, a.body)
		}
	}
	if a.status == http.StatusUnauthorized && a.header.Get("WWW-Authenticate") != "Bearer" {
		t.Errorf("401 without WWW-Authenticate: Bearer")
	}
}

// TestAccessTokenExpiry moves the clock past the token lifetime: the token
// stops, the refresh token still works.
func TestAccessTokenExpiry(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		tk := e.login(t, memberEmail)
		e.clock.Advance(accessTTL - time.Second)
		if got := e.me(t, tk); got != 200 {
			t.Fatalf("before expiry: %d", got)
		}
		e.clock.Advance(2 * time.Second)
		a := e.do(t, "GET", "/user/", tk.bearer(), "")
		if a.status != 401 || !strings.Contains(a.body, "Your session is invalid or has expired") {
			t.Fatalf("after expiry: %d %s", a.status, a.body)
		}
		next := refreshed(t, e.refresh(t, tk.refresh, browser))
		if got := e.me(t, next); got != 200 {
			t.Fatalf("refreshed token: %d", got)
		}
	})
}
