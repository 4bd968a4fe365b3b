package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Config says where a bucket is and how to reach it.
type S3Config struct {
	// URL is s3://bucket/prefix (the prefix may be empty).
	URL string
	// Endpoint is the server's host[:port] (default s3.amazonaws.com).
	Endpoint string
	// Region is the bucket's region (empty: asked from the server).
	Region string
	// AccessKey and SecretKey sign the requests; when both are empty the
	// credentials come from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY,
	// MINIO_ROOT_USER/MINIO_ROOT_PASSWORD or the instance's IAM role.
	AccessKey, SecretKey string
	// PathStyle addresses the bucket in the path (host/bucket/key, what
	// most self-hosted servers need) instead of the host name
	// (bucket.host/key).
	PathStyle bool
	// TLS speaks HTTPS to the endpoint.
	TLS bool
}

// partSize is the size up to which an upload is one PUT request: every
// document (at most 100 MB) goes in one request streamed from its staged
// file; a larger object goes in parts read from the file in place.
const partSize = 128 << 20

// S3 keeps objects in a bucket of an S3-compatible server, each under
// prefix/key, through the minio-go client (signature V4).
type S3 struct {
	client *minio.Client
	bucket string
	prefix string
	url    string
}

// ParseS3URL splits s3://bucket/prefix into the bucket and the prefix
// (without leading slash, with a trailing one unless empty).
func ParseS3URL(raw string) (bucket, prefix string, err error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "s3" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", "", fmt.Errorf("storage: %q is not an s3://bucket/prefix URL", raw)
	}
	prefix = strings.Trim(u.Path, "/")
	if strings.Contains(prefix, "//") || strings.Contains("/"+prefix+"/", "/../") || strings.Contains("/"+prefix+"/", "/./") {
		return "", "", fmt.Errorf("storage: the prefix of %q is not a plain path", raw)
	}
	if prefix != "" {
		prefix += "/"
	}
	return u.Host, prefix, nil
}

// NewS3 returns the store in the bucket cfg names. It does not reach the
// server; Check does.
func NewS3(cfg S3Config) (*S3, error) {
	bucket, prefix, err := ParseS3URL(cfg.URL)
	if err != nil {
		return nil, err
	}
	endpoint := cfg.Endpoint
	if endpoint == "" {
		endpoint = "s3.amazonaws.com"
	}
	if strings.Contains(endpoint, "/") {
		return nil, fmt.Errorf("storage: the S3 endpoint %q must be host[:port], without scheme or path (TLS is its own setting)", endpoint)
	}
	var creds *credentials.Credentials
	switch {
	case cfg.AccessKey != "" && cfg.SecretKey != "":
		creds = credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, "")
	case cfg.AccessKey == "" && cfg.SecretKey == "":
		creds = credentials.NewChainCredentials([]credentials.Provider{
			&credentials.EnvAWS{}, &credentials.EnvMinio{}, &credentials.IAM{Client: &http.Client{Transport: http.DefaultTransport}},
		})
	default:
		return nil, errors.New("storage: set both the S3 access key and the secret key, or neither")
	}
	lookup := minio.BucketLookupAuto
	if cfg.PathStyle {
		lookup = minio.BucketLookupPath
	}
	client, err := minio.New(endpoint, &minio.Options{Creds: creds, Secure: cfg.TLS, Region: cfg.Region, BucketLookup: lookup})
	if err != nil {
		return nil, fmt.Errorf("storage: S3 client for %s: %w", endpoint, err)
	}
	return &S3{client: client, bucket: bucket, prefix: prefix, url: "s3://" + bucket + "/" + prefix}, nil
}

// Check asks the server whether the bucket exists and the credentials
// reach it, so a wrong setting fails at start, not at the first upload.
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("storage: reach bucket %s: %w", s.bucket, err)
	}
	if !ok {
		return fmt.Errorf("storage: the bucket %s does not exist", s.bucket)
	}
	return nil
}

func (s *S3) String() string { return s.url }

func (s *S3) name(key string) string { return s.prefix + key }

// Put streams size bytes of r to the bucket in one PUT request (signed
// chunk by chunk over plain HTTP, unsigned payload over TLS): nothing is
// buffered beyond the client's copy buffer. S3 makes the object visible
// only once the request completed.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, size int64) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if size < 0 {
		return fmt.Errorf("storage: the size of %s is unknown", key)
	}
	info, err := s.client.PutObject(ctx, s.bucket, s.name(key), r, size,
		minio.PutObjectOptions{ContentType: "application/octet-stream", PartSize: partSize})
	if err != nil {
		return fmt.Errorf("storage: upload %s: %w", key, err)
	}
	if info.Size != size {
		return errShort
	}
	return nil
}

// PutFile uploads the file at path from disk, then removes it.
func (s *S3) PutFile(ctx context.Context, key, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("storage: open %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = s.Put(ctx, key, f, fi.Size())
	}
	f.Close()
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("storage: remove the staged %s: %w", path, err)
	}
	return nil
}

// Open answers the object of key as a reader that fetches ranges on
// demand (seek and ReadAt are ranged GET requests).
func (s *S3) Open(ctx context.Context, key string) (Object, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	obj, err := s.client.GetObject(ctx, s.bucket, s.name(key), minio.GetObjectOptions{})
	if err != nil {
		return nil, s.wrap("open", key, err)
	}
	if _, err := obj.Stat(); err != nil {
		obj.Close()
		return nil, s.wrap("open", key, err)
	}
	return obj, nil
}

// Remove deletes the object of key (S3 answers success for a missing one).
func (s *S3) Remove(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := s.client.RemoveObject(ctx, s.bucket, s.name(key), minio.RemoveObjectOptions{}); err != nil {
		if err := s.wrap("remove", key, err); errors.Is(err, ErrNotExist) {
			return nil
		}
		return fmt.Errorf("storage: remove %s: %w", key, err)
	}
	return nil
}

// Stat describes the object of key.
func (s *S3) Stat(ctx context.Context, key string) (Info, error) {
	if err := checkKey(key); err != nil {
		return Info{}, err
	}
	oi, err := s.client.StatObject(ctx, s.bucket, s.name(key), minio.StatObjectOptions{})
	if err != nil {
		return Info{}, s.wrap("stat", key, err)
	}
	return Info{Key: key, Size: oi.Size, Modified: oi.LastModified}, nil
}

// List lists the objects under the prefix (keys of another shape, such
// as deeper paths someone else put there, are skipped).
func (s *S3) List(ctx context.Context, fn func(Info) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for oi := range s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix, Recursive: true}) {
		if oi.Err != nil {
			return fmt.Errorf("storage: list %s: %w", s.url, oi.Err)
		}
		key := strings.TrimPrefix(oi.Key, s.prefix)
		if !ValidKey(key) {
			continue
		}
		if err := fn(Info{Key: key, Size: oi.Size, Modified: oi.LastModified}); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// wrap turns the server's "no such key" into ErrNotExist.
func (s *S3) wrap(op, key string, err error) error {
	resp := minio.ToErrorResponse(err)
	if resp.Code == "NoSuchKey" || resp.StatusCode == http.StatusNotFound && resp.Code != "NoSuchBucket" {
		return fmt.Errorf("storage: %s %s: %w (%v)", op, key, ErrNotExist, err)
	}
	return fmt.Errorf("storage: %s %s: %w", op, key, err)
}
