# Rhapsode: a static binary on a minimal, non-root image.
#
#   docker build -t rhapsode .
#   docker run -it -v rhapsode-data:/data rhapsode                              # the local table
#   docker run -e DISCORD_TOKEN=... -v rhapsode-data:/data rhapsode             # the Discord bot
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/rhapsode ./cmd/rhapsode \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/rhapsode /usr/local/bin/rhapsode
COPY --from=build --chown=nonroot:nonroot /out/data /data
USER nonroot:nonroot
WORKDIR /data
VOLUME /data
ENTRYPOINT ["/usr/local/bin/rhapsode"]
CMD ["--db", "/data/rhapsode.db"]
