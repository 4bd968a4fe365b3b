package auth

import "portfolio/internal/httpapi"

// Bind installs s as the server's authenticator and registers the routes of
// accounts and sessions. Paths are the contract with the browser app; see
// docs/api/auth.openapi.yaml.
func Bind(srv *httpapi.Server, s *Service) {
	srv.SetAuthenticator(s)
	public := httpapi.Public()
	srv.Handle("POST /token", s.handleLogin, public)
	srv.Handle("POST /auth/refresh/token", s.handleRefresh, public)
	srv.Handle("POST /auth/forgot-password", s.handleForgot, public)
	srv.Handle("POST /auth/reset-password", s.handleReset, public)
	srv.Handle("POST /auth/verify", s.handleVerify, public)
	srv.Handle("POST /auth/change-password", s.handleChangePassword, public)

	srv.Handle("POST /logout", s.handleLogout)
	srv.Handle("GET /user/{$}", s.handleGetUser)
	srv.Handle("PUT /user/{$}", s.handlePutUser)
	srv.Handle("PUT /user/password", s.handlePutPassword)
	srv.Handle("POST /jwt/register", s.handleRegister)
	srv.Handle("GET /users/generate/password/{$}", s.handleGeneratePassword)
}
