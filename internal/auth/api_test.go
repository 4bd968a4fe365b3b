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

const form = "application/x-www-form-urlencoded"

func formHeaders() map[string]string { return map[string]string{"Content-Type": form} }

// withToken replaces the bearer header by one computed from a fresh login
// of the member.
func withToken(e *env, fn func(t *testing.T, e *env, tk tokens) string) func(*testing.T, *testkit.Scenario) {
	return func(t *testing.T, s *testkit.Scenario) {
		s.Header = map[string]string{"Authorization": "Bearer " + fn(t, e, e.login(t, memberEmail))}
	}
}

func withRefreshBody(e *env, hash string) func(*testing.T, *testkit.Scenario) {
	return func(t *testing.T, s *testkit.Scenario) {
		tk := e.login(t, memberEmail)
		s.Body = `{"user_browser_hash":"` + hash + `","user_refresh_token":"` + tk.refresh + `"}`
	}
}

func scenarios(e *env) []testkit.Scenario {
	locked := []string{`"code":"account_locked"`, "Your account is locked"}
	invalid := []string{`{"detail":"Incorrect email or password."}`}
	tokenInvalid := []string{"Your session is invalid or has expired"}
	secretFields := []string{"user_password", "$argon2id"}
	return []testkit.Scenario{
		// POST /token
		{Name: "login form", Method: "POST", Path: "/token", Header: formHeaders(),
			Body:   "username=" + memberEmail + "&password=" + pw + "&user_browser_hash=" + browser,
			Status: 200, Contains: []string{`"access_token":"`, `"refresh_token":"`, `"token_type":"bearer"`, `"expires_in":1800`}},
		{Name: "login json, address in other case", Method: "POST", Path: "/token",
			Body:   `{"username":"  MEMBER@Portfolio.test ","password":"` + pw + `","user_browser_hash":"` + browser + `"}`,
			Status: 200, Contains: []string{`"access_token"`}},
		{Name: "login unknown user", Method: "POST", Path: "/token", Header: formHeaders(),
			Body: "username=nobody@portfolio.test&password=" + pw + "&user_browser_hash=x", Status: 400, Contains: invalid},
		{Name: "login wrong password", Method: "POST", Path: "/token", Header: formHeaders(),
			Body: "username=wrong@portfolio.test&password=nope-nope-1&user_browser_hash=x", Status: 400, Contains: invalid},
		{Name: "login no password set", Method: "POST", Path: "/token", Header: formHeaders(),
			Body: "username=nopassword@portfolio.test&password=" + pw + "&user_browser_hash=x", Status: 400, Contains: invalid},
		{Name: "login wrong password in German", Method: "POST", Path: "/token",
			Header: map[string]string{"Content-Type": form, "Accept-Language": "de-DE,de;q=0.9"},
			Body:   "username=nobody@portfolio.test&password=x&user_browser_hash=x", Status: 400,
			Contains: []string{"E-Mail-Adresse oder Passwort ist falsch."}},
		{Name: "login locked with right password", Method: "POST", Path: "/token", Header: formHeaders(),
			Body: "username=locked@portfolio.test&password=" + pw + "&user_browser_hash=x", Status: 403, Contains: locked, Absent: []string{"access_token"}},
		{Name: "login must change password", Method: "POST", Path: "/token", Header: formHeaders(),
			Body: "username=mustchange@portfolio.test&password=" + pw + "&user_browser_hash=x", Status: 403,
			Contains: []string{`"code":"password_change_required"`}, Absent: []string{"access_token"}},
		{Name: "login unverified", Method: "POST", Path: "/token", Header: formHeaders(),
			Body: "username=unverified@portfolio.test&password=" + pw + "&user_browser_hash=x", Status: 403,
			Contains: []string{`"code":"not_verified"`}, Absent: []string{"access_token"}},
		{Name: "login missing fields", Method: "POST", Path: "/token", Header: formHeaders(), Body: "username=", Status: 422,
			Contains: []string{`"loc":["body","username"]`, `"loc":["body","password"]`, `"loc":["body","user_browser_hash"]`, `"type":"missing"`, `"msg":"Email is required"`}},
		{Name: "login empty json", Method: "POST", Path: "/token", Body: `{}`, Status: 422, Contains: []string{`"type":"missing"`}},
		{Name: "login malformed json", Method: "POST", Path: "/token", Body: `{"username":`, Status: 400, Contains: []string{"not valid JSON"}},
		{Name: "login malformed form", Method: "POST", Path: "/token", Header: formHeaders(), Body: "username=%zz&password=x", Status: 400,
			Contains: []string{"The form data is not valid"}},
		{Name: "login wrong content type", Method: "POST", Path: "/token", Header: map[string]string{"Content-Type": "text/plain"},
			Body: "username=a", Status: 415, Contains: []string{"Unsupported content type"}},
		{Name: "login oversized body", Method: "POST", Path: "/token", Header: formHeaders(),
			Body: "username=" + strings.Repeat("a", maxBody+10), Status: 413, Contains: []string{"too large"}},
		{Name: "login too long user name", Method: "POST", Path: "/token", Header: formHeaders(),
			Body: "username=" + strings.Repeat("a", 300) + "&password=x&user_browser_hash=x", Status: 422, Contains: []string{"maximum 254"}},
		{Name: "login GET not allowed", Method: "GET", Path: "/token", Status: 405},

		// POST /auth/refresh/token
		{Name: "refresh", Method: "POST", Path: "/auth/refresh/token", Prepare: withRefreshBody(e, browser), Status: 200,
			Contains: []string{`"user_token":"`, `"user_refresh_token":"`, `"expires_in":1800`}},
		{Name: "refresh other browser", Method: "POST", Path: "/auth/refresh/token", Prepare: withRefreshBody(e, otherHash), Status: 401,
			Contains: []string{"Your session can no longer be renewed"}, Absent: []string{"user_token"}},
		{Name: "refresh unknown token", Method: "POST", Path: "/auth/refresh/token",
			Body: `{"user_browser_hash":"` + browser + `","user_refresh_token":"not-a-token"}`, Status: 401, Contains: []string{"can no longer be renewed"}},
		{Name: "refresh with access token", Method: "POST", Path: "/auth/refresh/token", Status: 401,
			Prepare: func(t *testing.T, s *testkit.Scenario) {
				s.Body = `{"user_browser_hash":"` + browser + `","user_refresh_token":"` + e.login(t, memberEmail).access + `"}`
			}},
		{Name: "refresh missing fields", Method: "POST", Path: "/auth/refresh/token", Body: `{}`, Status: 422,
			Contains: []string{`"loc":["body","user_browser_hash"]`, `"loc":["body","user_refresh_token"]`}},
		{Name: "refresh unknown field", Method: "POST", Path: "/auth/refresh/token", Body: `{"refresh":"x"}`, Status: 400, Contains: []string{"Unknown field: refresh"}},
		{Name: "refresh oversized body", Method: "POST", Path: "/auth/refresh/token", Status: 413,
			Body: `{"user_browser_hash":"` + strings.Repeat("b", maxBody) + `"}`, Contains: []string{"too large"}},
		{Name: "refresh form refused", Method: "POST", Path: "/auth/refresh/token", Header: formHeaders(), Body: "a=b", Status: 415},
		{Name: "refresh wrong type", Method: "POST", Path: "/auth/refresh/token", Body: `{"user_browser_hash":1,"user_refresh_token":"x"}`, Status: 422},

		// Access tokens on a private route.
		{Name: "no token", Method: "GET", Path: "/user/", Status: 401, Contains: []string{"Not authenticated."}},
		{Name: "garbage token", Method: "GET", Path: "/user/", Header: map[string]string{"Authorization": "Bearer abc.def.ghi"}, Status: 401, Contains: tokenInvalid},
		{Name: "basic scheme", Method: "GET", Path: "/user/", Header: map[string]string{"Authorization": "Basic YTpi"}, Status: 401},
		{Name: "token signed with another secret", Method: "GET", Path: "/user/", Status: 401, Contains: tokenInvalid,
			Prepare: withToken(e, func(t *testing.T, e *env, tk tokens) string {
				return signed(t, jwt.SigningMethodHS256, []byte("another-secret-another-secret-!!"), claimsFor(t, e, tk))
			})},
		{Name: "alg none", Method: "GET", Path: "/user/", Status: 401, Contains: tokenInvalid,
			Prepare: withToken(e, func(t *testing.T, e *env, tk tokens) string {
				return signed(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claimsFor(t, e, tk))
			})},
		{Name: "HS512 with the right secret", Method: "GET", Path: "/user/", Status: 401, Contains: tokenInvalid,
			Prepare: withToken(e, func(t *testing.T, e *env, tk tokens) string {
				return signed(t, jwt.SigningMethodHS512, testSecret, claimsFor(t, e, tk))
			})},
		{Name: "wrong type claim", Method: "GET", Path: "/user/", Status: 401, Contains: tokenInvalid,
			Prepare: withToken(e, func(t *testing.T, e *env, tk tokens) string {
				c := claimsFor(t, e, tk)
				c["typ"] = "refresh"
				return signed(t, jwt.SigningMethodHS256, testSecret, c)
			})},
		{Name: "wrong issuer", Method: "GET", Path: "/user/", Status: 401, Contains: tokenInvalid,
			Prepare: withToken(e, func(t *testing.T, e *env, tk tokens) string {
				c := claimsFor(t, e, tk)
				c["iss"] = "elsewhere"
				return signed(t, jwt.SigningMethodHS256, testSecret, c)
			})},
		{Name: "no expiry", Method: "GET", Path: "/user/", Status: 401, Contains: tokenInvalid,
			Prepare: withToken(e, func(t *testing.T, e *env, tk tokens) string {
				c := claimsFor(t, e, tk)
				delete(c, "exp")
				return signed(t, jwt.SigningMethodHS256, testSecret, c)
			})},
		{Name: "other user's id in a real session", Method: "GET", Path: "/user/", Status: 401, Contains: tokenInvalid,
			Prepare: withToken(e, func(t *testing.T, e *env, tk tokens) string {
				c := claimsFor(t, e, tk)
				c["sub"] = "1"
				return signed(t, jwt.SigningMethodHS256, testSecret, c)
			})},
		{Name: "unknown session", Method: "GET", Path: "/user/", Status: 401, Contains: tokenInvalid,
			Prepare: withToken(e, func(t *testing.T, e *env, tk tokens) string {
				c := claimsFor(t, e, tk)
				c["sid"] = "0123456789abcdef0123456789abcdef"
				return signed(t, jwt.SigningMethodHS256, testSecret, c)
			})},
		{Name: "refresh token as access token", Method: "GET", Path: "/user/", Status: 401, Contains: tokenInvalid,
			Prepare: withToken(e, func(_ *testing.T, _ *env, tk tokens) string { return tk.refresh })},
		// A session token in a URL authenticates nothing (issue 16).
		{Name: "token in query for GET refused", Method: "GET", Status: 401, Contains: []string{"Not authenticated."},
			Absent: []string{`"user_email"`},
			Prepare: func(t *testing.T, s *testkit.Scenario) {
				s.Path = "/user/?authorization=" + e.login(t, memberEmail).access
			}},
		{Name: "token in query, capitalised, with scheme, refused", Method: "GET", Status: 401, Absent: []string{`"password":"`},
			Prepare: func(t *testing.T, s *testkit.Scenario) {
				s.Path = "/users/generate/password/?Authorization=Bearer%20" + e.login(t, memberEmail).access
			}},
		{Name: "token in query for POST refused", Method: "POST", Status: 401, Contains: []string{"Not authenticated."},
			Prepare: func(t *testing.T, s *testkit.Scenario) {
				s.Path = "/logout?authorization=" + e.login(t, memberEmail).access
			}},

		// GET /user/
		{Name: "me as member", Method: "GET", Path: "/user/", As: memberEmail, Status: 200,
			Contains: []string{`"user_email":"member@portfolio.test"`, `"user_abbreviation":"MM"`, `"user_language":"de"`,
				`"usertype":{"usertype_id":1,"usertype_name":"INTERN","usertype_external":0}`,
				`"roles":[{"role_id":2,"role_name":"Team member","role_code":"team_member","role_menu":"member_menu","tablegroups":[{"tablegroup_id":1,"tablegroup_name":"tickets","crud_c":1,"crud_r":1,"crud_u":0,"crud_d":0}]}]`,
				`"partnercompany":[]`, `"company":null`, `"customergroup":null`, `"partnergroup":null`,
				`"team_id":[7]`, `"teams":[{"team_id":7,"team_name":"FM","team_type":"extern_client"}]`,
				`"configs":[{"config_key":"menu","config_val":[{"access_name":"member_menu","menus":[{"name":"ticket","value":["read"]}]}]}]`,
				`"tablegroups":[{"tablegroup_id":1,"table_name":["board","ticket"]}]`, `"users_tablegroups":[]`,
				`{"action":"read","subject":"Auth"}`, `{"action":"create","subject":"ticket"}`, `{"action":"read","subject":"menu_ticket"}`,
				`"user_last_login_time":"`},
			Absent: append([]string{`"action":"manage"`, `"user_is_director":1`}, secretFields...)},
		{Name: "me as external", Method: "GET", Path: "/user/", As: extEmail, Status: 200,
			Contains: []string{`"usertype_external":1`, `"user_is_director":1`,
				`"company":{"company_id":1,"company_name":"Acme Stores","customergroup_id":1}`,
				`"customergroup":{"customergroup_id":1,"customergroup_name":"Retail group"}`,
				`"partnercompany":[{"partnercompany_id":1,"partnercompany_name":"Clean & Co"}]`,
				`"menus":[{"name":"ticket","value":["read"]}]`},
			Absent: []string{`"name":"payment"`, "menu_payment"}},
		{Name: "me as admin", Method: "GET", Path: "/user/", As: adminEmail, Status: 200,
			Contains: []string{`"rules":[{"action":"manage","subject":"all"}]`, `"role_code":"admin"`}},

		// PUT /user/
		{Name: "profile update", Method: "PUT", Path: "/user/", As: "flow2@portfolio.test", Status: 200,
			Body: `{"user_firstname":" Fiona ","user_lastname":"Flow","user_fix_phonenumber":"+49 30 1234-56","user_fax_phonenumber":"","user_mobile":"0170 123456","user_language":"fr"}`,
			Contains: []string{`"user_firstname":"Fiona"`, `"user_abbreviation":"FF"`, `"user_fix_phonenumber":"+49 30 1234-56"`,
				`"user_fax_phonenumber":null`, `"user_mobile":"0170 123456"`, `"user_language":"fr"`, `"rules":[`}},
		{Name: "profile unknown field", Method: "PUT", Path: "/user/", As: memberEmail, Status: 400,
			Body: `{"user_firstname":"A","user_lastname":"B","user_email":"x@y.z"}`, Contains: []string{"Unknown field: user_email"}},
		{Name: "profile missing names", Method: "PUT", Path: "/user/", As: memberEmail, Status: 422, Body: `{"user_firstname":"  "}`,
			Contains: []string{`"loc":["body","user_firstname"]`, `"loc":["body","user_lastname"]`}},
		{Name: "profile bad values", Method: "PUT", Path: "/user/", As: memberEmail, Status: 422,
			Body:     `{"user_firstname":"` + strings.Repeat("x", 101) + `","user_lastname":"B","user_mobile":"call me","user_language":"es"}`,
			Contains: []string{"maximum 100 characters", `"loc":["body","user_mobile"]`, `"loc":["body","user_language"]`, "en, de, fr"}},
		{Name: "profile not json", Method: "PUT", Path: "/user/", As: memberEmail, Status: 415, Header: formHeaders(), Body: "a=b"},
		{Name: "profile anonymous", Method: "PUT", Path: "/user/", Status: 401, Body: `{}`},

		// PUT /user/password
		{Name: "password wrong old", Method: "PUT", Path: "/user/password", As: memberEmail, Status: 422,
			Body: `{"old_password":"not-it-123","new_password":"Another-pass-42"}`, Contains: []string{`"loc":["body","old_password"]`, "current password is not correct"}},
		{Name: "password weak new", Method: "PUT", Path: "/user/password", As: memberEmail, Status: 422,
			Body: `{"old_password":"` + pw + `","new_password":"short1"}`, Contains: []string{`"loc":["body","new_password"]`, "at least 10 characters"}},
		{Name: "password letters only", Method: "PUT", Path: "/user/password", As: memberEmail, Status: 422,
			Body: `{"old_password":"` + pw + `","new_password":"abcdefghijkl"}`, Contains: []string{`"type":"password_weak"`}},
		{Name: "password same", Method: "PUT", Path: "/user/password", As: memberEmail, Status: 422,
			Body: `{"old_password":"` + pw + `","new_password":"` + pw + `"}`, Contains: []string{"must differ"}},
		{Name: "password missing", Method: "PUT", Path: "/user/password", As: memberEmail, Status: 422, Body: `{}`,
			Contains: []string{`"loc":["body","old_password"]`, `"loc":["body","new_password"]`}},
		{Name: "password changed", Method: "PUT", Path: "/user/password", As: "pwchange@portfolio.test", Status: 200,
			Body: `{"old_password":"` + pw + `","new_password":"Another-pass-42"}`, Contains: []string{`{"detail":"Your password has been changed."}`}},

		// POST /auth/forgot-password
		{Name: "forgot known", Method: "POST", Path: "/auth/forgot-password", Body: `{"email":"flow@portfolio.test"}`, Status: 200,
			Contains: []string{`{"detail":"If an account exists for this address, we have sent it a link to reset the password."}`}},
		{Name: "forgot unknown", Method: "POST", Path: "/auth/forgot-password", Body: `{"email":"ghost@portfolio.test"}`, Status: 200,
			Contains: []string{`{"detail":"If an account exists for this address, we have sent it a link to reset the password."}`}},
		{Name: "forgot missing", Method: "POST", Path: "/auth/forgot-password", Body: `{}`, Status: 422, Contains: []string{`"loc":["body","email"]`}},
		{Name: "forgot not an address", Method: "POST", Path: "/auth/forgot-password", Body: `{"email":"Ghost <g@x.test>"}`, Status: 422,
			Contains: []string{`"type":"email"`}},

		// POST /auth/reset-password and /auth/verify
		{Name: "reset bad link", Method: "POST", Path: "/auth/reset-password", Body: `{"token":"nope","password":"Another-pass-42"}`, Status: 400,
			Contains: []string{"This link is invalid, has expired or has already been used."}},
		{Name: "reset weak password", Method: "POST", Path: "/auth/reset-password", Body: `{"token":"nope","password":"weak"}`, Status: 422,
			Contains: []string{`"type":"password_weak"`}},
		{Name: "reset missing", Method: "POST", Path: "/auth/reset-password", Body: `{}`, Status: 422,
			Contains: []string{`"loc":["body","token"]`, `"loc":["body","password"]`}},
		{Name: "verify bad link", Method: "POST", Path: "/auth/verify", Body: `{"token":"nope"}`, Status: 400, Contains: []string{"This link is invalid"}},
		{Name: "verify missing token", Method: "POST", Path: "/auth/verify", Body: `{"password":"Another-pass-42"}`, Status: 422,
			Contains: []string{`"loc":["body","token"]`}},

		// POST /auth/change-password
		{Name: "change at login", Method: "POST", Path: "/auth/change-password", Status: 200,
			Body:     `{"username":"mustchange2@portfolio.test","old_password":"` + pw + `","new_password":"Another-pass-42"}`,
			Contains: []string{"Your password has been changed."}},
		{Name: "change wrong old", Method: "POST", Path: "/auth/change-password", Status: 400,
			Body: `{"username":"wrong@portfolio.test","old_password":"nope-nope-1","new_password":"Another-pass-42"}`, Contains: invalid},
		{Name: "change unknown user", Method: "POST", Path: "/auth/change-password", Status: 400,
			Body: `{"username":"ghost@portfolio.test","old_password":"nope-nope-1","new_password":"Another-pass-42"}`, Contains: invalid},
		{Name: "change locked", Method: "POST", Path: "/auth/change-password", Status: 403,
			Body: `{"username":"locked@portfolio.test","old_password":"` + pw + `","new_password":"Another-pass-42"}`, Contains: locked},
		{Name: "change weak", Method: "POST", Path: "/auth/change-password", Status: 422,
			Body: `{"username":"mustchange@portfolio.test","old_password":"` + pw + `","new_password":"weak"}`, Contains: []string{`"loc":["body","new_password"]`}},
		{Name: "change same", Method: "POST", Path: "/auth/change-password", Status: 422,
			Body: `{"username":"mustchange@portfolio.test","old_password":"` + pw + `","new_password":"` + pw + `"}`, Contains: []string{"must differ"}},

		// POST /jwt/register
		{Name: "register as member", Method: "POST", Path: "/jwt/register", As: memberEmail, Status: 403,
			Body: `{"user_email":"new@portfolio.test"}`, Contains: []string{`{"detail":"This action is not authorized"}`}},
		{Name: "register anonymous", Method: "POST", Path: "/jwt/register", Status: 401, Body: `{}`},
		{Name: "register", Method: "POST", Path: "/jwt/register", As: adminEmail, Status: 201,
			Body: `{"user_email":"New.User@portfolio.test","user_firstname":"New","user_lastname":"User","usertype_id":2,"role_id":3,` +
				`"team_ids":[7],"company_id":1,"user_language":"de"}`,
			Contains: []string{`"user_id":`, `"detail":"User Created"`}},
		{Name: "register taken address", Method: "POST", Path: "/jwt/register", As: adminEmail, Status: 409,
			Body:     `{"user_email":"MEMBER@portfolio.test","user_firstname":"A","user_lastname":"B","usertype_id":1,"role_id":2}`,
			Contains: []string{"A user with this email address already exists."}},
		{Name: "register missing fields", Method: "POST", Path: "/jwt/register", As: adminEmail, Status: 422, Body: `{}`,
			Contains: []string{`"loc":["body","user_email"]`, `"loc":["body","user_firstname"]`, `"loc":["body","user_lastname"]`,
				`"loc":["body","usertype_id"]`, `"loc":["body","role_id"]`}},
		{Name: "register unknown references", Method: "POST", Path: "/jwt/register", As: adminEmail, Status: 422,
			Body:     `{"user_email":"x@portfolio.test","user_firstname":"A","user_lastname":"B","usertype_id":9,"role_id":2,"team_ids":[99],"company_id":98}`,
			Contains: []string{`"loc":["body","usertype_id"]`, `"loc":["body","team_ids"]`, `"loc":["body","company_id"]`, "does not exist"}},
		{Name: "register unknown role", Method: "POST", Path: "/jwt/register", As: adminEmail, Status: 422,
			Body:     `{"user_email":"x@portfolio.test","user_firstname":"A","user_lastname":"B","usertype_id":1,"role_id":99}`,
			Contains: []string{`"loc":["body","role_id"]`}},
		{Name: "register bad values", Method: "POST", Path: "/jwt/register", As: adminEmail, Status: 422,
			Body:     `{"user_email":"not an address","user_firstname":"A","user_lastname":"B","usertype_id":1,"role_id":2,"user_password":"weak","user_language":"xx"}`,
			Contains: []string{`"loc":["body","user_email"]`, `"loc":["body","user_password"]`, `"loc":["body","user_language"]`}},
		{Name: "register group mismatch", Method: "POST", Path: "/jwt/register", As: adminEmail, Status: 422,
			Body:     `{"user_email":"y@portfolio.test","user_firstname":"A","user_lastname":"B","usertype_id":2,"role_id":3,"company_id":1,"customergroup_id":2}`,
			Contains: []string{`"loc":["body","customergroup_id"]`}},
		{Name: "register unknown field", Method: "POST", Path: "/jwt/register", As: adminEmail, Status: 400, Body: `{"user_locked":0}`,
			Contains: []string{"Unknown field: user_locked"}},

		// GET /users/generate/password/
		{Name: "generate password", Method: "GET", Path: "/users/generate/password/", As: memberEmail, Status: 200, Contains: []string{`{"password":"`}},
		{Name: "generate password anonymous", Method: "GET", Path: "/users/generate/password/", Status: 401},

		// POST /logout
		{Name: "logout", Method: "POST", Path: "/logout", As: memberEmail, Status: 204},
		{Name: "logout with refresh token", Method: "POST", Path: "/logout", Status: 204,
			Prepare: func(t *testing.T, s *testkit.Scenario) {
				tk := e.login(t, memberEmail)
				s.Header = tk.bearer()
				s.Body = `{"user_refresh_token":"` + tk.refresh + `"}`
			}},
		{Name: "logout malformed body", Method: "POST", Path: "/logout", As: memberEmail, Body: `{"user_refresh_token":`, Status: 400},
		{Name: "logout anonymous", Method: "POST", Path: "/logout", Status: 401},
	}
}

func TestAPIScenarios(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		c := e.client()
		for _, s := range scenarios(e) {
			t.Run(s.Name, func(t *testing.T) {
				r := c.Check(t, s)
				if r.Status == http.StatusUnauthorized && r.Header.Get("WWW-Authenticate") != "Bearer" {
					t.Errorf("401 without WWW-Authenticate: Bearer")
				}
			})
		}
	})
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
