# The app image: daphne processes, the clock worker and the one-off migrate all run from it
# (compose.yaml; docs/operations.md "compose").
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
WORKDIR /srv/mahjong
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# Hashed static names for DEBUG=0 (whitenoise serves them); a throwaway key just for this step.
RUN DEBUG=0 SECRET_KEY=collectstatic-only ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput -v 0
RUN useradd --system --home /srv/mahjong mahjong
USER mahjong
EXPOSE 8000
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "mahjong_site.asgi:application"]
